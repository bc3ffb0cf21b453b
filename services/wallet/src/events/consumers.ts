import { TOPICS, startEventConsumer, type EventConsumer } from '@challenge/events';
import type { ServiceRuntime } from '@challenge/kit';
import type { Database } from '../data/db.ts';
import { CHALLENGE_EVENT_TYPES, onChallengeEvent, onExpirationChanged } from '../domain/escrow.ts';
import { forgetPaymentProfile } from '../domain/payouts.ts';
import { CONSUMER, openWalletForNewUser } from '../domain/wallets.ts';

export function startConsumers(runtime: ServiceRuntime, db: Database): Promise<EventConsumer> {
  const settle = (event: Parameters<typeof onChallengeEvent>[1]) =>
    onChallengeEvent(db, event, runtime.logger);
  return startEventConsumer({
    kafka: runtime.kafka,
    producer: runtime.producer,
    groupId: CONSUMER,
    topics: [TOPICS.identity, TOPICS.challenge],
    topicPrefix: runtime.topicPrefix,
    tracer: runtime.tracer,
    logger: runtime.logger,
    handlers: {
      UserRegistered: (event) => openWalletForNewUser(db, event),
      UserDeleted: (event) => forgetPaymentProfile(db, event),
      ...Object.fromEntries(CHALLENGE_EVENT_TYPES.map((type) => [type, settle])),
      ChallengeExpirationChanged: (event) => onExpirationChanged(db, event),
    },
  });
}
