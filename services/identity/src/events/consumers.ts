import { TOPICS, startEventConsumer, type EventConsumer } from '@challenge/events';
import type { ServiceRuntime } from '@challenge/kit';
import type { Database } from '../data/db.ts';
import { CONSUMER, recordWalletBalance } from '../domain/profiles.ts';

export function startConsumers(runtime: ServiceRuntime, db: Database): Promise<EventConsumer> {
  return startEventConsumer({
    kafka: runtime.kafka,
    producer: runtime.producer,
    groupId: CONSUMER,
    topics: [TOPICS.wallet],
    topicPrefix: runtime.topicPrefix,
    tracer: runtime.tracer,
    logger: runtime.logger,
    handlers: {
      WalletBalanceChanged: async (event) => void (await recordWalletBalance(db, event)),
    },
  });
}
