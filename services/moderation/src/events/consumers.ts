import {
  TOPICS,
  handleOnce,
  startEventConsumer,
  type DomainEvent,
  type EventConsumer,
  type EventHandlers,
} from '@challenge/events';
import type { ServiceRuntime } from '@challenge/kit';
import { transactionRunner, type Database, type Transaction } from '../data/db.ts';
import {
  onEscrowHoldResolved,
  onPayoutAction,
  onPayoutsExported,
  onUserBanned,
  onUserUnbanned,
  onUserVerified,
} from '../domain/actions.ts';
import {
  CHALLENGE_EVENTS,
  ENDING,
  projectBan,
  projectChallenge,
  projectDeletedUser,
  projectFollow,
  projectRegisteredUser,
  type ChallengeEvent,
} from '../domain/projection.ts';
import { openRefereeCase, withdrawCasesOfEndedChallenge } from '../domain/referee.ts';

/**
 * One consumer group for what moderation reads from others: the challenge projection and the
 * referee cases (challenge.v1), the users projection, bans and follows (identity.v1), staff's
 * escrow resolutions and payout actions for the audit log (wallet.v1). Each handler runs once per event id, in one
 * transaction with its effect.
 */
export const MODERATION_GROUP = 'moderation.events';

export function startConsumers(
  runtime: ServiceRuntime,
  db: Database,
  options: { refereeWindowMs: number },
): Promise<EventConsumer> {
  const transaction = transactionRunner(db);
  const once =
    <E extends DomainEvent>(effect: (tx: Transaction, event: E) => Promise<void>) =>
    async (event: E) =>
      void (await handleOnce(transaction, MODERATION_GROUP, event.id, (tx) => effect(tx, event)));
  const challengeHandler = once<ChallengeEvent>(async (tx, event) => {
    await projectChallenge(tx, event);
    if (event.type === 'ChallengeSentToReferee') {
      await openRefereeCase(tx, event, options.refereeWindowMs);
    } else if (ENDING.includes(event.type)) {
      await withdrawCasesOfEndedChallenge(tx, event);
    }
  });
  return startEventConsumer({
    kafka: runtime.kafka,
    producer: runtime.producer,
    topicPrefix: runtime.topicPrefix,
    tracer: runtime.tracer,
    logger: runtime.logger,
    groupId: MODERATION_GROUP,
    topics: [TOPICS.challenge, TOPICS.identity, TOPICS.wallet],
    handlers: {
      ...(Object.fromEntries(
        CHALLENGE_EVENTS.map((type) => [type, challengeHandler]),
      ) as EventHandlers),
      // The commonest identity event, in one statement with its mark (docs/adr/0104).
      UserRegistered: async (event: DomainEvent<'UserRegistered'>) =>
        void (await projectRegisteredUser(db, MODERATION_GROUP, event)),
      UserBanned: once<DomainEvent<'UserBanned'>>(async (tx, event) => {
        await projectBan(tx, event);
        await onUserBanned(tx, event);
      }),
      UserUnbanned: once<DomainEvent<'UserUnbanned'>>(async (tx, event) => {
        await projectBan(tx, event);
        await onUserUnbanned(tx, event);
      }),
      UserVerified: once(onUserVerified),
      EscrowHoldResolved: once(onEscrowHoldResolved),
      PayoutReleased: once(onPayoutAction),
      PayoutCompleted: once(onPayoutAction),
      PayoutCancelled: once(onPayoutAction),
      PayoutsExported: once(onPayoutsExported),
      UserDeleted: once(projectDeletedUser),
      UserFollowed: once(projectFollow),
      UserUnfollowed: once(projectFollow),
    },
  });
}
