import {
  TOPICS,
  handleOnce,
  startEventConsumer,
  type DomainEvent,
  type EventConsumer,
  type EventHandlers,
} from '@challenge/events';
import type { Logger, ServiceRuntime } from '@challenge/kit';
import type { ObjectStorage } from '../data/storage.ts';
import { sweepAvatars } from '../domain/avatars.ts';
import { transactionRunner, type Database } from '../data/db.ts';
import {
  CHALLENGE_EVENTS,
  hideChallenge,
  projectChallengeEvent,
  showChallenge,
  type ChallengeEvent,
} from '../domain/challenges.ts';
import { findRekeyRequest } from '../data/rekeys.ts';

/**
 * One consumer group for what media reads from others: the challenge projection (challenge.v1),
 * moderation's hiding of challenges and bringing them back online (moderation.v1), and identity's profile changes and erasures
 * (identity.v1: pictures no profile uses any more are deleted, docs/adr/0049). Each projection
 * handler runs once per event id, in one transaction with its effect; deleting objects is
 * idempotent by itself.
 */
export const MEDIA_GROUP = 'media.events';

/** Queues the move a handler asked for; left to the sweep when the queue cannot take it. */
export type RekeyRequester = (challengeId: string, requestedAt: Date) => Promise<void>;

export interface ChallengeHandlerDeps {
  db: Database;
  logger: Pick<Logger, 'warn'>;
  /** Absent: the moves are left to the sweep (finishStaleRekeys), as tests without Redis do. */
  requestRekey?: RekeyRequester;
}

/**
 * The handlers of the challenge projection and of hiding: each projects once per event id (and,
 * when it hides the challenge or makes it private, records the wanted move in that transaction),
 * then queues the move as a job (docs/adr/0073): the copies run beside the consumer, never in its
 * partition, so a take-offline of one challenge never waits for another's objects (ADR 65's
 * move, unchanged). A redelivered event queues nothing new: the job id is the request's time.
 */
export function challengeHandlers(deps: ChallengeHandlerDeps) {
  const transaction = transactionRunner(deps.db);
  const queueMove = async (challengeId: string) => {
    const requestedAt = await findRekeyRequest(deps.db, challengeId);
    if (!requestedAt || !deps.requestRekey) return;
    await deps.requestRekey(challengeId, requestedAt).catch((error: unknown) => {
      // The request stays on the row; the sweep finishes it (STALE_REKEY_MS).
      deps.logger.warn({ err: error, challengeId }, 'could not queue the move of a challenge');
    });
  };
  return {
    async project(event: ChallengeEvent): Promise<void> {
      await handleOnce(transaction, MEDIA_GROUP, event.id, (tx) =>
        projectChallengeEvent(tx, event),
      );
      // Made private: the links handed out while it was public stop working.
      if (event.type === 'ChallengeVisibilityChanged') await queueMove(event.data.challengeId);
    },
    async hide(event: DomainEvent<'ChallengeTakenOffline' | 'ChallengeRemoved'>): Promise<void> {
      await handleOnce(transaction, MEDIA_GROUP, event.id, (tx) => hideChallenge(tx, event));
      await queueMove(event.data.challengeId);
    },
    async show(event: DomainEvent<'ChallengeBroughtBackOnline'>): Promise<void> {
      await handleOnce(transaction, MEDIA_GROUP, event.id, (tx) => showChallenge(tx, event));
    },
  };
}

export function startConsumers(
  runtime: ServiceRuntime,
  db: Database,
  storage: ObjectStorage,
  requestRekey?: RekeyRequester,
): Promise<EventConsumer> {
  const { project, hide, show } = challengeHandlers({ db, logger: runtime.logger, requestRekey });
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
      ChallengeBroughtBackOnline: show,
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
