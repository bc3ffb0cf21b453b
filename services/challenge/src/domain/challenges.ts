import { z } from 'zod';
import { AppError } from '@challenge/kit';
import type { Database } from '../data/db.ts';
import {
  findChallengeById,
  findChallengeBySlug,
  type ChallengeRecord,
  type ChallengeStatus,
  type ChallengeVisibility,
} from '../data/challenges.ts';
import { parseSlug } from './slugs.ts';

/** A challenge as its readers see it: names of the public contract, money as integer cents. */
export interface ChallengeView {
  id: string;
  slug: string;
  challengeName: string;
  challengeDescription: string;
  challengeReward: number;
  status: ChallengeStatus;
  visibility: ChallengeVisibility;
  expirationDate: string;
  expirationTimeWeeks: number;
  ownerId: string;
  challengedUserId: string | null;
}

/** Who a visibility rule needs to know about. */
type Audience = Pick<ChallengeRecord, 'visibility' | 'ownerId' | 'challengedUserId'>;

/**
 * A public challenge is visible to everyone, visitors included; a private one only to its owner
 * and its challenged user. Everyone else is told it does not exist, so its existence never leaks.
 */
export function canView(challenge: Audience, viewerId: string | null): boolean {
  if (challenge.visibility === 'public') return true;
  if (viewerId === null) return false;
  return viewerId === challenge.ownerId || viewerId === challenge.challengedUserId;
}

/** Cents as a GraphQL Int: safe up to 2^31-1 cents (21 million euro). */
function toInt(cents: bigint): number {
  if (cents > 2_147_483_647n || cents < -2_147_483_648n)
    throw new Error('amount exceeds Int range');
  return Number(cents);
}

export function toChallengeView(challenge: ChallengeRecord): ChallengeView {
  return {
    id: challenge.id,
    slug: challenge.slug,
    challengeName: challenge.name,
    challengeDescription: challenge.description,
    challengeReward: toInt(challenge.rewardCents),
    status: challenge.status,
    visibility: challenge.visibility,
    expirationDate: challenge.expirationDate.toISOString(),
    expirationTimeWeeks: challenge.expirationTimeWeeks,
    ownerId: challenge.ownerId,
    challengedUserId: challenge.challengedUserId,
  };
}

export async function getChallengeBySlug(
  db: Database,
  viewerId: string | null,
  slug: string,
): Promise<ChallengeView> {
  const challenge = await findChallengeBySlug(db, parseSlug(slug));
  if (!challenge || !canView(challenge, viewerId)) throw new AppError('challenge_not_found');
  return toChallengeView(challenge);
}

/**
 * The federation entry point (other subgraphs refer to challenges by id): the same visibility
 * rule as the slug lookup, so that no private challenge is readable through a reference.
 */
export async function findVisibleChallenge(
  db: Database,
  viewerId: string | null,
  id: string,
): Promise<ChallengeView | null> {
  if (!z.uuid().safeParse(id).success) return null;
  const challenge = await findChallengeById(db, id);
  return challenge && canView(challenge, viewerId) ? toChallengeView(challenge) : null;
}
