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
  CHALLENGE_EVENTS,
  hideChallenge,
  projectChallengeEvent,
  type ChallengeEvent,
} from '../domain/challenges.ts';

/**
 * One consumer group for what media reads from others: the challenge projection (challenge.v1)
 * and moderation's hiding of challenges (moderation.v1). Each handler runs once per event id, in
 * one transaction with its effect.
 */
export const MEDIA_GROUP = 'media.events';

export function startConsumers(runtime: ServiceRuntime, db: Database): Promise<EventConsumer> {
  const transaction = transactionRunner(db);
  const project = async (event: ChallengeEvent) =>
    void (await handleOnce(transaction, MEDIA_GROUP, event.id, (tx) =>
      projectChallengeEvent(tx, event),
    ));
  const hide = async (event: DomainEvent<'ChallengeTakenOffline' | 'ChallengeRemoved'>) =>
    void (await handleOnce(transaction, MEDIA_GROUP, event.id, (tx) => hideChallenge(tx, event)));
  return startEventConsumer({
    kafka: runtime.kafka,
    producer: runtime.producer,
    topicPrefix: runtime.topicPrefix,
    logger: runtime.logger,
    groupId: MEDIA_GROUP,
    topics: [TOPICS.challenge, TOPICS.moderation],
    handlers: {
      ...(Object.fromEntries(CHALLENGE_EVENTS.map((type) => [type, project])) as EventHandlers),
      ChallengeTakenOffline: hide,
      ChallengeRemoved: hide,
    },
  });
}
