import type { DomainEvent, EventType } from '@challenge/events';
import type { AuthUser } from '@challenge/kit';
import type { Transaction } from '../data/db.ts';
import {
  setVisibilityIfNewer,
  upsertChallengeAccess,
  type ChallengeAccessChange,
  type ChallengeAccessRecord,
} from '../data/challenges.ts';
import { requestRekey } from '../data/rekeys.ts';

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
  DuelSideJudged: undefined,
  ChallengeVisibilityChanged: undefined,
} as const satisfies Partial<Record<EventType, string | undefined>>;

export type ChallengeEventType = keyof typeof STATUS_AFTER;
export const CHALLENGE_EVENTS = Object.keys(STATUS_AFTER) as ChallengeEventType[];
export type ChallengeEvent = DomainEvent<ChallengeEventType>;

/**
 * Projects a challenge.v1 event: every one carries the parties and the challenge type (the
 * snapshot); ChallengeCreated (version 0) and ChallengeVisibilityChanged (a higher version) the
 * visibility, applied only when newer than the one held (docs/adr/0056). A challenged user only
 * becomes known once the invited person has an account, so a null never overwrites one. In a
 * duel, a performer's side stops waiting for a video once their video went to review or their
 * side ended (docs/adr/0055).
 */
export async function projectChallengeEvent(tx: Transaction, event: ChallengeEvent): Promise<void> {
  const data = event.data;
  const change: ChallengeAccessChange = {
    ownerId: data.ownerId,
    challengedUserId: data.challengedUserId ?? undefined,
    status: STATUS_AFTER[event.type],
    challengeType: data.challengeType,
    closeSideOf: closedSideOf(event),
  };
  await upsertChallengeAccess(tx, data.challengeId, change);
  const visibility = visibilityOf(event);
  if (
    visibility &&
    (await setVisibilityIfNewer(tx, data.challengeId, visibility.visibility, visibility.version)) &&
    event.type === 'ChallengeVisibilityChanged' &&
    visibility.visibility !== 'public'
  ) {
    // Made private: links a stranger got while it was public stop working (docs/adr/0065).
    await requestRekey(tx, data.challengeId);
  }
}

function visibilityOf(event: ChallengeEvent): { visibility: string; version: number } | null {
  if (event.type === 'ChallengeCreated') return { visibility: event.data.visibility, version: 0 };
  if (event.type === 'ChallengeVisibilityChanged') {
    return { visibility: event.data.visibility, version: event.data.visibilityVersion };
  }
  return null;
}

/** The duel performer whose side this event takes past "awaiting video", if any. */
function closedSideOf(event: ChallengeEvent): string | undefined {
  switch (event.type) {
    case 'ChallengeVideoUploaded':
    case 'ChallengeSentToReferee':
    case 'DuelSideJudged':
      return event.data.performerId ?? undefined;
    default:
      return undefined;
  }
}

/**
 * ChallengeTakenOffline / ChallengeRemoved: from now on only staff see the challenge's media, and
 * its objects move to new keys so that links signed before stop working (docs/adr/0065).
 */
export async function hideChallenge(
  tx: Transaction,
  event: DomainEvent<'ChallengeTakenOffline' | 'ChallengeRemoved'>,
): Promise<void> {
  await upsertChallengeAccess(tx, event.data.challengeId, { hiddenAt: new Date(event.occurredAt) });
  await requestRekey(tx, event.data.challengeId);
}

/**
 * ChallengeBroughtBackOnline (docs/adr/0071): staff brought an offline challenge back, so its
 * media is seen as before it was hidden. Links signed before the hiding stay dead (its objects
 * moved); new ones name the new keys. Moderation never brings a removed challenge back.
 */
export async function showChallenge(
  tx: Transaction,
  event: DomainEvent<'ChallengeBroughtBackOnline'>,
): Promise<void> {
  await upsertChallengeAccess(tx, event.data.challengeId, { hiddenAt: null });
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

/** Challenge statuses in which a duel's side may still be waiting for its video. */
const DUEL_UPLOAD_STATUSES = ['accepted', 'review', 'referee'];

/** Whose proof the challenge waits for: solo, its challenged user; duel, either party. */
export const isPerformer = (access: ChallengeAccessRecord, user: Pick<AuthUser, 'id'>): boolean =>
  access.challengeType === 'duel'
    ? isParty(access, user)
    : access.challengedUserId !== null && access.challengedUserId === user.id;

/**
 * Whether the user may upload a proof, on a challenge that is not hidden. Solo: its challenged
 * user, while it is accepted. Duel (docs/adr/0032, 0055): either party, while the duel runs and
 * their own side still waits for a video (the other side may already be in review or referee).
 * Who may see is unchanged (mayViewChallenge).
 */
export function mayUploadProof(access: ChallengeAccessRecord | null, user: AuthUser): boolean {
  if (!access || access.hiddenAt) return false;
  if (!isPerformer(access, user)) return false;
  if (access.challengeType === 'duel') {
    if (!access.status || !DUEL_UPLOAD_STATUSES.includes(access.status)) return false;
    return !access.closedSides.includes(user.id);
  }
  return access.status === 'accepted';
}
