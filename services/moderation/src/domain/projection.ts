import type { DomainEvent } from '@challenge/events';
import type { Database, Transaction } from '../data/db.ts';
import {
  applyKnownVisibility,
  projectRegistrationOnce,
  recordFollow,
  upsertKnownChallenge,
  updateKnownUser,
} from '../data/projections.ts';

/** challenge.v1 events that moderation projects (docs/adr/0040). */
export const CHALLENGE_EVENTS = [
  'ChallengeCreated',
  'ChallengeAccepted',
  'ChallengeRefused',
  'ChallengeVideoUploaded',
  'ChallengeSentToReferee',
  'ChallengeCompleted',
  'ChallengeFailed',
  'ChallengeCancelled',
  'ChallengeExpired',
  'ChallengeVisibilityChanged',
] as const;
export type ChallengeEvent = DomainEvent<(typeof CHALLENGE_EVENTS)[number]>;

/** The events after which a challenge is over: nothing of it is left to judge. */
export const ENDING: readonly string[] = [
  'ChallengeRefused',
  'ChallengeCompleted',
  'ChallengeFailed',
  'ChallengeCancelled',
  'ChallengeExpired',
];

/** Every challenge event carries the challenge's snapshot: enough to know it and its parties. */
export async function projectChallenge(tx: Transaction, event: ChallengeEvent): Promise<void> {
  const { data } = event;
  await upsertKnownChallenge(tx, {
    id: data.challengeId,
    slug: data.slug,
    name: data.challengeName,
    ownerId: data.ownerId,
    challengedUserId: data.challengedUserId,
    ...(event.type === 'ChallengeVideoUploaded' ? { videoId: event.data.videoId } : {}),
    ...(ENDING.includes(event.type) ? { ended: true } : {}),
  });
  // Who may report a challenge depends on its visibility (docs/adr/0074): the newest one wins.
  if (event.type === 'ChallengeCreated') {
    await applyKnownVisibility(tx, data.challengeId, event.data.visibility, 0);
  } else if (event.type === 'ChallengeVisibilityChanged') {
    const { visibility, visibilityVersion } = event.data;
    await applyKnownVisibility(tx, data.challengeId, visibility, visibilityVersion);
  }
}

/** A new account, once per event: `consumer` marks it handled in the same statement. */
export async function projectRegisteredUser(
  db: Database,
  consumer: string,
  event: DomainEvent<'UserRegistered'>,
): Promise<boolean> {
  return projectRegistrationOnce(
    db,
    { consumer, eventId: event.id },
    { id: event.data.userId, username: event.data.username },
  );
}

export async function projectBan(
  tx: Transaction,
  event: DomainEvent<'UserBanned' | 'UserUnbanned'>,
): Promise<void> {
  await updateKnownUser(tx, {
    id: event.data.userId,
    banType: event.type === 'UserBanned' ? event.data.type : null,
  });
}

export async function projectDeletedUser(
  tx: Transaction,
  event: DomainEvent<'UserDeleted'>,
): Promise<void> {
  await updateKnownUser(tx, { id: event.data.userId, deleted: true });
}

export async function projectFollow(
  tx: Transaction,
  event: DomainEvent<'UserFollowed' | 'UserUnfollowed'>,
): Promise<void> {
  await recordFollow(tx, event.data, event.type === 'UserFollowed');
}
