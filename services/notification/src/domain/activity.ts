import { AppError, pageWindow, paginationOf, type PageRequest } from '@challenge/kit';
import type { DomainEvent } from '@challenge/events';
import { listActivityEntries, type ActivityType, type NewActivityEntry } from '../data/activity.ts';
import type { Database } from '../data/db.ts';

/**
 * The activity log: each challenge event becomes one entry in the log of every party who must
 * know about it, never in the log of whoever caused it (docs/adr/0014, "who gets what"), except
 * the outcomes: completed, failed and expired go to both parties, so that each one's log says
 * how every challenge ended, the approving owner's too (issue 22, point 14):
 *
 * | event                  | entry in the log of          | type           | other party   |
 * | ---------------------- | ---------------------------- | -------------- | ------------- |
 * | ChallengeCreated       | challenged user              | invited        | owner         |
 * | ChallengeAccepted      | owner                        | accepted       | challenged    |
 * | ChallengeRefused       | owner                        | refused        | challenged    |
 * | ChallengeVideoUploaded | owner                        | video_uploaded | challenged    |
 * | ChallengeSentToReferee | challenged user              | referee        | owner         |
 * | ChallengeCompleted     | challenged user and owner    | completed      | the other one |
 * | ChallengeFailed        | owner and challenged user    | failed         | the other one |
 * | ChallengeExpired       | owner and challenged user    | expired        | the other one |
 * | ChallengeLiked         | owner and challenged, except | liked          | the liker     |
 * |                        | the liker                    |                |               |
 * | ChallengeCommented     | owner and challenged, except | commented      | the commenter |
 * |                        | the commenter                |                |               |
 *
 * ChallengeCancelled has no entry type in the spec: the challenged user hears of it by e-mail.
 * A challenge whose invitee has no account yet (challengedUserId null) gives that side nothing.
 *
 * A duel (docs/adr/0032, 0063) has two performers, each judged by the other party, so the events
 * that concern one side go by `performerId` rather than by owner and challenged user:
 *
 * | duel event                         | entry in the log of                 | type           | other party |
 * | ---------------------------------- | ----------------------------------- | -------------- | ----------- |
 * | ChallengeVideoUploaded (performer) | the judge (the other party)         | video_uploaded | performer   |
 * | ChallengeSentToReferee (performer) | the performer                       | referee        | the judge   |
 * | DuelSideJudged (performer)         | the performer; the judge too when a | completed or   | the other   |
 * |                                    | referee decided                     | failed         |             |
 * | ChallengeCompleted / ChallengeFailed | both, by their own side's outcome | completed or   | the other   |
 * | with duelOutcome                   |                                     | failed         |             |
 *
 * Every other duel event is read as in a solo challenge.
 */
export type ChallengeEventType =
  | 'ChallengeCreated'
  | 'ChallengeAccepted'
  | 'ChallengeRefused'
  | 'ChallengeVideoUploaded'
  | 'ChallengeSentToReferee'
  | 'ChallengeCompleted'
  | 'ChallengeFailed'
  | 'ChallengeCancelled'
  | 'ChallengeExpired'
  | 'ChallengeLiked'
  | 'ChallengeCommented'
  | 'DuelSideJudged';
export type ChallengeEvent = DomainEvent<ChallengeEventType>;

export const ACTIVITY_TYPES = [
  'invited',
  'accepted',
  'refused',
  'video_uploaded',
  'completed',
  'failed',
  'liked',
  'commented',
  'referee',
  'expired',
] as const satisfies readonly ActivityType[];

interface Recipient {
  userId: string | null;
  otherUserId: string | null;
}

type Activity = { type: ActivityType; to: Recipient[] };

/** Who gets which entry for one event: the table above, as code. */
export function activityFor(event: ChallengeEvent): Activity | Activity[] | null {
  const duel = duelActivityFor(event);
  if (duel !== undefined) return duel;
  const { ownerId, challengedUserId: challenged } = event.data;
  const toOwner = { userId: ownerId, otherUserId: challenged };
  const toChallenged = { userId: challenged, otherUserId: ownerId };
  const bothExcept = (actor: string) =>
    [ownerId, challenged]
      .filter((userId) => userId !== actor)
      .map((userId) => ({ userId, otherUserId: actor }));
  switch (event.type) {
    case 'ChallengeCreated':
      return { type: 'invited', to: [toChallenged] };
    case 'ChallengeAccepted':
      return { type: 'accepted', to: [toOwner] };
    case 'ChallengeRefused':
      return { type: 'refused', to: [toOwner] };
    case 'ChallengeVideoUploaded':
      return { type: 'video_uploaded', to: [toOwner] };
    case 'ChallengeSentToReferee':
      return { type: 'referee', to: [toChallenged] };
    case 'ChallengeCompleted':
      return { type: 'completed', to: [toChallenged, toOwner] };
    case 'ChallengeFailed':
      return { type: 'failed', to: [toOwner, toChallenged] };
    case 'ChallengeExpired':
      return { type: 'expired', to: [toOwner, toChallenged] };
    case 'ChallengeLiked':
      return { type: 'liked', to: bothExcept(event.data.likedBy) };
    case 'ChallengeCommented':
      return { type: 'commented', to: bothExcept(event.data.commentedBy) };
    case 'ChallengeCancelled':
    case 'DuelSideJudged':
      return null;
  }
}

/** A duel's entries (the second table above); undefined when the event reads as a solo one. */
function duelActivityFor(event: ChallengeEvent): Activity | Activity[] | null | undefined {
  if (!isDuelEvent(event)) return undefined;
  const side = sideOf(event);
  switch (event.type) {
    case 'ChallengeVideoUploaded':
      return side ? { type: 'video_uploaded', to: [side.judge] } : undefined;
    case 'ChallengeSentToReferee':
      return side ? { type: 'referee', to: [side.performer] } : undefined;
    case 'DuelSideJudged':
      if (!side) return null;
      return {
        type: event.data.outcome,
        to: event.data.judgedByReferee ? [side.performer, side.judge] : [side.performer],
      };
    case 'ChallengeCompleted':
    case 'ChallengeFailed': {
      const outcome = event.data.duelOutcome;
      if (!outcome) return undefined;
      const { ownerId, challengedUserId: challenged } = event.data;
      return [
        { type: outcome.owner, to: [{ userId: ownerId, otherUserId: challenged }] },
        { type: outcome.challenged, to: [{ userId: challenged, otherUserId: ownerId }] },
      ];
    }
    default:
      return undefined;
  }
}

/** A duel's event: it says so, or names a performer or the duel's outcome (docs/adr/0032). */
export function isDuelEvent(event: ChallengeEvent): boolean {
  const data = event.data;
  return (
    data.challengeType === 'duel' ||
    ('performerId' in data && data.performerId != null) ||
    ('duelOutcome' in data && data.duelOutcome != null)
  );
}

/**
 * The side a duel event is about: its performer and its judge (the other party), each with the
 * other as other party. Null when the event names no performer who is a party of the duel.
 */
export function sideOf(
  event: ChallengeEvent,
): { performer: Recipient & { userId: string }; judge: Recipient } | null {
  const { ownerId, challengedUserId: challenged } = event.data;
  const performerId = 'performerId' in event.data ? event.data.performerId : null;
  if (!performerId || (performerId !== ownerId && performerId !== challenged)) return null;
  const judge = performerId === ownerId ? challenged : ownerId;
  return {
    performer: { userId: performerId, otherUserId: judge },
    judge: { userId: judge, otherUserId: performerId },
  };
}

/** The rows one event adds: one per user who has an account, at most one per user. */
export function activityEntries(event: ChallengeEvent): NewActivityEntry[] {
  const found = activityFor(event);
  if (!found) return [];
  const seen = new Set<string>();
  const entries: NewActivityEntry[] = [];
  const recipients = (Array.isArray(found) ? found : [found]).flatMap((activity) =>
    activity.to.map((to) => ({ ...to, type: activity.type })),
  );
  for (const { userId, otherUserId, type } of recipients) {
    if (userId === null || seen.has(userId)) continue;
    seen.add(userId);
    entries.push({
      eventId: event.id,
      userId,
      type,
      challengeId: event.data.challengeId,
      slug: event.data.slug,
      challengeName: event.data.challengeName,
      rewardCents: event.data.rewardCents,
      otherUserId,
      occurredAt: new Date(event.occurredAt),
    });
  }
  return entries;
}

export interface ActivityEntryView {
  id: string;
  type: ActivityType;
  challenge: { id: string; slug: string; challengeName: string; challengeReward: number };
  /** A reference identity resolves (username, displayName, avatar); null when there is none. */
  user: { id: string } | null;
  timestamp: string;
}

/** Cents as a GraphQL Int: refused rather than rounded beyond 2^31-1 cents (ADR 6). */
function toInt(cents: bigint): number {
  if (cents > 2_147_483_647n) throw new AppError('generic_error', 'Amount out of range.');
  return Number(cents);
}

/** A user's own activity log, newest first. */
export async function getActivityLog(db: Database, userId: string, request: PageRequest) {
  const { rows, total } = await listActivityEntries(db, userId, pageWindow(request));
  const items: ActivityEntryView[] = rows.map((row) => ({
    id: row.id.toString(),
    type: row.type,
    challenge: {
      id: row.challengeId,
      slug: row.slug,
      challengeName: row.challengeName,
      challengeReward: toInt(row.rewardCents),
    },
    user: row.otherUserId ? { id: row.otherUserId } : null,
    timestamp: row.occurredAt.toISOString(),
  }));
  return { items, pagination: paginationOf(request, total) };
}
