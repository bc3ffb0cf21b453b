import {
  TOPICS,
  handleOnce,
  startEventConsumer,
  type DomainEvent,
  type EventConsumer,
  type EventHandlers,
} from '@challenge/events';
import type { ServiceRuntime } from '@challenge/kit';
import type { ObjectStorage } from '../data/storage.ts';
import { sweepAvatars } from '../domain/avatars.ts';
import { transactionRunner, type Database } from '../data/db.ts';
import {
  CHALLENGE_EVENTS,
  hideChallenge,
  projectChallengeEvent,
  type ChallengeEvent,
} from '../domain/challenges.ts';
import { rekeyChallenge, type RekeyDeps } from '../domain/rekeys.ts';

/**
 * One consumer group for what media reads from others: the challenge projection (challenge.v1),
 * moderation's hiding of challenges (moderation.v1), and identity's profile changes and erasures
 * (identity.v1: pictures no profile uses any more are deleted, docs/adr/0049). Each projection
 * handler runs once per event id, in one transaction with its effect; deleting objects is
 * idempotent by itself.
 */
export const MEDIA_GROUP = 'media.events';

/**
 * The handlers of the challenge projection and of hiding: each projects once per event id, then
 * finishes the move of the challenge's objects it asked for (docs/adr/0065) after the commit, so
 * that a redelivered event moves nothing, or finishes a move a crash left half-done.
 */
export function challengeHandlers(deps: RekeyDeps) {
  const transaction = transactionRunner(deps.db);
  return {
    async project(event: ChallengeEvent): Promise<void> {
      await handleOnce(transaction, MEDIA_GROUP, event.id, (tx) =>
        projectChallengeEvent(tx, event),
      );
      // Made private: the links handed out while it was public stop working.
      if (event.type === 'ChallengeVisibilityChanged') {
        await rekeyChallenge(deps, event.data.challengeId);
      }
    },
    async hide(event: DomainEvent<'ChallengeTakenOffline' | 'ChallengeRemoved'>): Promise<void> {
      await handleOnce(transaction, MEDIA_GROUP, event.id, (tx) => hideChallenge(tx, event));
      await rekeyChallenge(deps, event.data.challengeId);
    },
  };
}

export function startConsumers(
  runtime: ServiceRuntime,
  db: Database,
  storage: ObjectStorage,
): Promise<EventConsumer> {
  const { project, hide } = challengeHandlers({ db, storage, logger: runtime.logger });
  return startEventConsumer({
    kafka: runtime.kafka,
    producer: runtime.producer,
    topicPrefix: runtime.topicPrefix,
    tracer: runtime.tracer,
    logger: runtime.logger,
    groupId: MEDIA_GROUP,
    topics: [TOPICS.challenge, TOPICS.moderation, TOPICS.identity],
    handlers: {
      ...(Object.fromEntries(CHALLENGE_EVENTS.map((type) => [type, project])) as EventHandlers),
      ChallengeTakenOffline: hide,
      ChallengeRemoved: hide,
      UserProfileUpdated: async (event) =>
        void (await sweepAvatars(storage, event.data.userId, {
          keep: event.data.avatar,
          before: new Date(event.occurredAt),
        })),
      // Erasure: every picture of the account, whenever it was stored.
      UserDeleted: async (event) =>
        void (await sweepAvatars(storage, event.data.userId, {
          keep: null,
          before: new Date(8.64e15),
        })),
    },
  });
}
