import {
  TOPICS,
  handleOnce,
  startEventConsumer,
  type DomainEvent,
  type EventConsumer,
  type EventHandlers,
} from '@challenge/events';
import type { ServiceRuntime } from '@challenge/kit';
import { transactionRunner, type Database } from '../data/db.ts';
import {
  applyChallengeBroughtBackOnline,
  applyChallengeRemoved,
  applyChallengeTakenOffline,
  applyRefereeDecided,
  applyVideoProcessed,
} from '../domain/external.ts';
import { applyVideoProcessingFailed } from '../domain/timers.ts';
import {
  IDENTITY_EVENTS,
  projectRegistration,
  projectUser,
  type IdentityEvent,
} from '../domain/users.ts';
import { projectFollow, type FollowEvent } from '../domain/follows.ts';

/**
 * One consumer group for everything challenge reads from others: the users projection and the
 * invitation claim (identity.v1), processed and failed videos (media.v1), referee decisions and
 * staff's take-offline, bringing back online and removal (moderation.v1). Each handler runs once
 * per event id (handleOnce), in one transaction with its effect. The times they record (a review
 * starts, a challenge goes offline or comes back) are read from `clock`, the scheduler's.
 */
export const CHALLENGE_GROUP = 'challenge.events';

export function startConsumers(
  runtime: ServiceRuntime,
  db: Database,
  clock: () => Date,
): Promise<EventConsumer> {
  const transaction = transactionRunner(db);
  const { logger } = runtime;
  const project = async (event: Exclude<IdentityEvent, DomainEvent<'UserRegistered'>>) =>
    void (await handleOnce(transaction, CHALLENGE_GROUP, event.id, (tx) => projectUser(tx, event)));
  const follow = async (event: FollowEvent) =>
    void (await handleOnce(transaction, CHALLENGE_GROUP, event.id, (tx) =>
      projectFollow(tx, event),
    ));
  return startEventConsumer({
    kafka: runtime.kafka,
    producer: runtime.producer,
    topicPrefix: runtime.topicPrefix,
    tracer: runtime.tracer,
    logger,
    groupId: CHALLENGE_GROUP,
    topics: [TOPICS.identity, TOPICS.media, TOPICS.moderation],
    handlers: {
      ...(Object.fromEntries(IDENTITY_EVENTS.map((type) => [type, project])) as EventHandlers),
      // The commonest identity event, in one statement with its mark (docs/adr/0104).
      UserRegistered: async (event: DomainEvent<'UserRegistered'>) =>
        void (await projectRegistration(db, CHALLENGE_GROUP, event)),
      // The follows projection: the discover list of challenges from people one follows.
      UserFollowed: follow,
      UserUnfollowed: follow,
      VideoProcessed: async (event: DomainEvent<'VideoProcessed'>) =>
        void (await handleOnce(transaction, CHALLENGE_GROUP, event.id, (tx) =>
          applyVideoProcessed(tx, event, logger, clock()),
        )),
      VideoProcessingFailed: async (event: DomainEvent<'VideoProcessingFailed'>) =>
        void (await handleOnce(transaction, CHALLENGE_GROUP, event.id, (tx) =>
          applyVideoProcessingFailed(tx, event),
        )),
      RefereeDecided: async (event: DomainEvent<'RefereeDecided'>) =>
        void (await handleOnce(transaction, CHALLENGE_GROUP, event.id, (tx) =>
          applyRefereeDecided(tx, event, logger),
        )),
      ChallengeTakenOffline: async (event: DomainEvent<'ChallengeTakenOffline'>) =>
        void (await handleOnce(transaction, CHALLENGE_GROUP, event.id, (tx) =>
          applyChallengeTakenOffline(tx, event, logger, clock()),
        )),
      ChallengeBroughtBackOnline: async (event: DomainEvent<'ChallengeBroughtBackOnline'>) =>
        void (await handleOnce(transaction, CHALLENGE_GROUP, event.id, (tx) =>
          applyChallengeBroughtBackOnline(tx, event, logger, clock()),
        )),
      ChallengeRemoved: async (event: DomainEvent<'ChallengeRemoved'>) =>
        void (await handleOnce(transaction, CHALLENGE_GROUP, event.id, (tx) =>
          applyChallengeRemoved(tx, event, logger, clock()),
        )),
    },
  });
}
