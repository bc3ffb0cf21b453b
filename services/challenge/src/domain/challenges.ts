import { z } from 'zod';
import { AppError, type AuthUser } from '@challenge/kit';
import type { Database } from '../data/db.ts';
import {
  findChallengeById,
  findChallengeBySlug,
  type ChallengeRecord,
  type ChallengeStatus,
  type ChallengeVisibility,
} from '../data/challenges.ts';
import { findSides } from '../data/sides.ts';
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
  challengeType: ChallengeRecord['challengeType'];
  tags: { name: string }[];
  judgedByReferee: boolean;
  challengeFailedComment: string | null;
  /** The decline reason (refused) or the owner's reject reason (referee, and after). */
  reason: string | null;
  /** Only for the two parties and staff: the rest never see whom an address invites. */
  challengedEmail: string | null;
  /** Only for the two parties and staff, once accepted. */
  proofPhrase: string | null;
  acceptedAt: string | null;
  /** While in review: when the owner's silence starts to count as approval. */
  judgingDeadline: string | null;
  createdAt: string;
}

/** Who a visibility rule needs to know about. */
type Audience = Pick<ChallengeRecord, 'visibility' | 'ownerId' | 'challengedUserId'> &
  Partial<Pick<ChallengeRecord, 'status' | 'moderation'>>;

/** Referees, moderators and admins see private challenges too. */
export const STAFF_ROLES = ['referee', 'moderator', 'admin'] as const;
export const isStaff = (viewer: Pick<AuthUser, 'roles'> | null): boolean =>
  !!viewer && viewer.roles.some((role) => (STAFF_ROLES as readonly string[]).includes(role));

const isParty = (challenge: Audience, viewerId: string | null) =>
  viewerId !== null && (viewerId === challenge.ownerId || viewerId === challenge.challengedUserId);

/**
 * A public challenge is visible to everyone, visitors included; a private one only to its owner,
 * its challenged user and staff. Everyone else is told it does not exist, so its existence never
 * leaks. A draft (a moment inside createChallenge) only to its owner and staff. One that staff
 * took offline or removed only to staff.
 */
export function canView(challenge: Audience, viewerId: string | null, staff = false): boolean {
  if (staff) return true;
  // Taken offline or removed by staff (docs/adr/0041): not even its parties see it.
  if (challenge.moderation) return false;
  if (challenge.status === 'draft') return viewerId !== null && viewerId === challenge.ownerId;
  if (challenge.visibility === 'public') return true;
  return isParty(challenge, viewerId);
}

/** Cents as a GraphQL Int: safe up to 2^31-1 cents (21 million euro). */
function toInt(cents: bigint): number {
  if (cents > 2_147_483_647n || cents < -2_147_483_648n)
    throw new Error('amount exceeds Int range');
  return Number(cents);
}

export function toChallengeView(
  challenge: ChallengeRecord,
  viewer: { id: string | null; staff: boolean } = { id: null, staff: false },
  judgingWindowMs = 7 * 86_400_000,
): ChallengeView {
  const insider = viewer.staff || isParty(challenge, viewer.id);
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
    challengeType: challenge.challengeType,
    tags: challenge.tags.map((name) => ({ name })),
    judgedByReferee: challenge.judgedByReferee,
    challengeFailedComment: challenge.challengeFailedComment,
    reason: challenge.reason,
    challengedEmail: insider ? challenge.challengedEmail : null,
    proofPhrase: insider ? challenge.proofPhrase : null,
    acceptedAt: challenge.acceptedAt?.toISOString() ?? null,
    judgingDeadline:
      challenge.status === 'review' && challenge.reviewStartedAt
        ? new Date(challenge.reviewStartedAt.getTime() + judgingWindowMs).toISOString()
        : null,
    createdAt: challenge.createdAt.toISOString(),
  };
}

/** The reader of a request: who, and whether staff. */
export const readerOf = (user: AuthUser | null) => ({ id: user?.id ?? null, staff: isStaff(user) });

export async function getChallengeBySlug(
  db: Database,
  viewer: AuthUser | null,
  slug: string,
  judgingWindowMs?: number,
): Promise<ChallengeView> {
  const reader = readerOf(viewer);
  const challenge = await findChallengeBySlug(db, parseSlug(slug));
  if (!challenge || !canView(challenge, reader.id, reader.staff)) {
    throw new AppError('challenge_not_found');
  }
  return toChallengeView(challenge, reader, judgingWindowMs);
}

/**
 * The federation entry point (other subgraphs refer to challenges by id): the same visibility
 * rule as the slug lookup, so that no private challenge is readable through a reference.
 */
export async function findVisibleChallenge(
  db: Database,
  viewer: AuthUser | null,
  id: string,
  judgingWindowMs?: number,
): Promise<ChallengeView | null> {
  if (!z.uuid().safeParse(id).success) return null;
  const reader = readerOf(viewer);
  const challenge = await findChallengeById(db, id);
  return challenge && canView(challenge, reader.id, reader.staff)
    ? toChallengeView(challenge, reader, judgingWindowMs)
    : null;
}

/** One side of a duel as its readers see it (docs/adr/0032). */
export interface ChallengeSideView {
  performerId: string;
  /** awaiting_video, review, referee, completed or failed. */
  status: string;
  /** The judge's reject reason (referee, and after). */
  reason: string | null;
  judgedByReferee: boolean;
  challengeFailedComment: string | null;
  /** In review: when the judge's silence starts to count as approval. */
  judgingDeadline: string | null;
}

/**
 * A duel's two sides, the owner's first; none for a solo challenge or before acceptance. Only
 * reached through a challenge the reader may see.
 */
export async function sidesOf(
  db: Database,
  challenge: Pick<ChallengeView, 'id' | 'ownerId' | 'challengeType'>,
  judgingWindowMs = 7 * 86_400_000,
): Promise<ChallengeSideView[]> {
  if (challenge.challengeType !== 'duel') return [];
  const sides = await findSides(db, challenge.id);
  return sides
    .sort(
      (a, b) =>
        Number(b.performerId === challenge.ownerId) - Number(a.performerId === challenge.ownerId),
    )
    .map((side) => ({
      performerId: side.performerId,
      status: side.status,
      reason: side.reason,
      judgedByReferee: side.judgedByReferee,
      challengeFailedComment: side.failedComment,
      judgingDeadline:
        side.status === 'review' && side.reviewStartedAt
          ? new Date(side.reviewStartedAt.getTime() + judgingWindowMs).toISOString()
          : null,
    }));
}
