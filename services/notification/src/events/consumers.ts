import { TOPICS, startEventConsumer, type EventConsumer } from '@challenge/events';
import type { ServiceRuntime } from '@challenge/kit';
import { sendLoginLinkEmail, sendPasswordResetEmail } from '../domain/commands.ts';
import type { DeliveryDeps } from '../domain/deliveries.ts';

/** The consumer group of the e-mail commands (prefixed by the topic prefix, like every group). */
export const COMMANDS_GROUP = 'notification.commands';

export interface ConsumerOptions {
  /** Handler attempts before a command is parked on the dead-letter topic (default 8). */
  maxAttempts?: number;
  /** First backoff between attempts, doubling each time (default 250 ms). */
  retryBaseMs?: number;
}

export function startConsumers(
  runtime: ServiceRuntime,
  deps: Omit<DeliveryDeps, 'logger'>,
  options: ConsumerOptions = {},
): Promise<EventConsumer> {
  const delivery: DeliveryDeps = { ...deps, logger: runtime.logger };
  return startEventConsumer({
    kafka: runtime.kafka,
    producer: runtime.producer,
    groupId: COMMANDS_GROUP,
    topics: [TOPICS.notificationCommands],
    topicPrefix: runtime.topicPrefix,
    logger: runtime.logger,
    maxAttempts: options.maxAttempts,
    retryBaseMs: options.retryBaseMs,
    handlers: {
      LoginLinkRequested: async (event) => void (await sendLoginLinkEmail(delivery, event)),
      PasswordResetRequested: async (event) => void (await sendPasswordResetEmail(delivery, event)),
    },
  });
}
