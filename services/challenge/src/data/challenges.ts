import type { ChallengeStatus, ChallengeVisibility } from './generated/enums.ts';
import type { Database, Transaction } from './db.ts';

export type { ChallengeStatus, ChallengeVisibility };

export interface ChallengeRecord {
  id: string;
  slug: string;
  ownerId: string;
  challengedUserId: string | null;
  challengedEmail: string | null;
  name: string;
  description: string;
  rewardCents: bigint;
  status: ChallengeStatus;
  visibility: ChallengeVisibility;
  expirationDate: Date;
  expirationTimeWeeks: number;
  createdAt: Date;
}

const challengeFields = {
  id: true,
  slug: true,
  ownerId: true,
  challengedUserId: true,
  challengedEmail: true,
  name: true,
  description: true,
  rewardCents: true,
  status: true,
  visibility: true,
  expirationDate: true,
  expirationTimeWeeks: true,
  createdAt: true,
} as const;

export function findChallengeBySlug(
  db: Database | Transaction,
  slug: string,
): Promise<ChallengeRecord | null> {
  return db.challenge.findUnique({ where: { slug }, select: challengeFields });
}

export function findChallengeById(
  db: Database | Transaction,
  id: string,
): Promise<ChallengeRecord | null> {
  return db.challenge.findUnique({ where: { id }, select: challengeFields });
}

export interface NewChallengeRow {
  slug: string;
  ownerId: string;
  challengedUserId?: string | null;
  challengedEmail?: string | null;
  name: string;
  description: string;
  rewardCents: bigint;
  status?: ChallengeStatus;
  visibility?: ChallengeVisibility;
  expirationDate: Date;
  expirationTimeWeeks: number;
}

export function insertChallenge(
  db: Database | Transaction,
  row: NewChallengeRow,
): Promise<ChallengeRecord> {
  return db.challenge.create({ data: row, select: challengeFields });
}
