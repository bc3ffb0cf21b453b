import type { DomainEvent, EventType } from '@challenge/events';
import type { AuthUser } from '@challenge/kit';
import type { Transaction } from '../data/db.ts';
import {
  upsertChallengeAccess,
  type ChallengeAccessChange,
  type ChallengeAccessRecord,
} from '../data/challenges.ts';

/** Roles that see every challenge, hidden or private (as the challenge subgraph's isStaff). */
export const STAFF_ROLES = ['referee', 'moderator', 'admin'] as const;
export const isStaff = (viewer: Pick<AuthUser, 'roles'> | null): boolean =>
  viewer?.roles.some((role) => (STAFF_ROLES as readonly string[]).includes(role)) ?? false;

/** The challenge status each challenge.v1 event leaves behind (undefined: unchanged). */
const STATUS_AFTER = {
  ChallengeCreated: 'open',
  ChallengeAccepted: 'accepted',
  ChallengeRefused: 'refused',
  ChallengeVideoUploaded: 'review',
  ChallengeSentToReferee: 'referee',
  ChallengeCompleted: 'completed',
  ChallengeFailed: 'failed',
  ChallengeCancelled: 'cancelled',
  ChallengeExpired: 'expired',
  ChallengeLiked: undefined,
  ChallengeCommented: undefined,
} as const satisfies Partial<Record<EventType, string | undefined>>;

export type ChallengeEventType = keyof typeof STATUS_AFTER;
export const CHALLENGE_EVENTS = Object.keys(STATUS_AFTER) as ChallengeEventType[];
export type ChallengeEvent = DomainEvent<ChallengeEventType>;

/**
 * Projects a challenge.v1 event: every one carries the parties (the snapshot), ChallengeCreated
 * the visibility. A challenged user only becomes known once the invited person has an account,
 * so a null never overwrites one.
 * TODO(visibility edits): challenge publishes no event when updateChallenge changes the
 * visibility; until it does, media keeps the visibility the challenge was created with.
 */
export async function projectChallengeEvent(tx: Transaction, event: ChallengeEvent): Promise<void> {
  const data = event.data;
  const change: ChallengeAccessChange = {
    ownerId: data.ownerId,
    challengedUserId: data.challengedUserId ?? undefined,
    status: STATUS_AFTER[event.type],
    visibility: 'visibility' in data ? data.visibility : undefined,
  };
  await upsertChallengeAccess(tx, data.challengeId, change);
}

/** ChallengeTakenOffline / ChallengeRemoved: from now on only staff see the challenge's media. */
export async function hideChallenge(
  tx: Transaction,
  event: DomainEvent<'ChallengeTakenOffline' | 'ChallengeRemoved'>,
): Promise<void> {
  await upsertChallengeAccess(tx, event.data.challengeId, { hiddenAt: new Date(event.occurredAt) });
}

export const isParty = (
  access: ChallengeAccessRecord,
  viewer: Pick<AuthUser, 'id'> | null,
): boolean =>
  viewer !== null && (viewer.id === access.ownerId || viewer.id === access.challengedUserId);

/**
 * Whether the viewer may see the challenge's media. Staff always; nobody else once it is hidden
 * by moderation; a public one everybody; otherwise (private, or a visibility media has not
 * learnt yet) its two parties only. A challenge media has never heard of: staff only.
 */
export function mayViewChallenge(
  access: ChallengeAccessRecord | null,
  viewer: Pick<AuthUser, 'id' | 'roles'> | null,
): boolean {
  if (isStaff(viewer)) return true;
  if (!access || access.hiddenAt) return false;
  if (access.visibility === 'public') return true;
  return isParty(access, viewer);
}

/**
 * Whether the user may upload the proof: the challenged user of an accepted challenge that is
 * not hidden.
 * TODO(duels): the challenge events carry no challenge type yet; once they say a challenge is a
 * duel, its owner may upload too (the duel issue adds the type to the snapshot).
 */
export function mayUploadProof(access: ChallengeAccessRecord | null, user: AuthUser): boolean {
  if (!access || access.hiddenAt || access.status !== 'accepted') return false;
  return access.challengedUserId !== null && access.challengedUserId === user.id;
}
