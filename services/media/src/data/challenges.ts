import type { Database, Transaction } from './db.ts';

/** Media's view of one challenge (the challenge_access projection). */
export interface ChallengeAccessRecord {
  challengeId: string;
  ownerId: string | null;
  challengedUserId: string | null;
  status: string | null;
  visibility: string | null;
  hiddenAt: Date | null;
}

const accessFields = {
  challengeId: true,
  ownerId: true,
  challengedUserId: true,
  status: true,
  visibility: true,
  hiddenAt: true,
} as const;

export function findChallengeAccess(
  db: Database | Transaction,
  challengeId: string,
): Promise<ChallengeAccessRecord | null> {
  return db.challengeAccess.findUnique({ where: { challengeId }, select: accessFields });
}

/** What an event tells: undefined leaves a field as it is. */
export type ChallengeAccessChange = Partial<Omit<ChallengeAccessRecord, 'challengeId'>>;

export async function upsertChallengeAccess(
  db: Database | Transaction,
  challengeId: string,
  change: ChallengeAccessChange,
): Promise<void> {
  const data = Object.fromEntries(
    Object.entries(change).filter(([, value]) => value !== undefined),
  ) as ChallengeAccessChange;
  await db.challengeAccess.upsert({
    where: { challengeId },
    create: { challengeId, ...data },
    update: data,
  });
}
