import {
  TOPICS,
  handleOnce,
  startEventConsumer,
  type DomainEvent,
  type EventConsumer,
  type EventConsumerOptions,
  type EventHandlers,
} from '@challenge/events';
import type { ServiceRuntime } from '@challenge/kit';
import { insertActivityEntries } from '../data/activity.ts';
import { transactionRunner, type Database } from '../data/db.ts';
import type { Mailer } from '../data/mailer.ts';
import {
  activityEntries,
  type ChallengeEvent,
  type ChallengeEventType,
} from '../domain/activity.ts';
import {
  sendChallengeShareEmail,
  sendLoginLinkEmail,
  sendPasswordResetEmail,
} from '../domain/commands.ts';
import {
  sendChallengeEventMail,
  sendEscalationMail,
  sendPaymentAccountMail,
  sendPayoutMail,
  sendReportOutcomeMail,
  sendVideoFailedMail,
  type MailDeps,
} from '../domain/event-mail.ts';
import type { LinkConfig } from '../domain/links.ts';
import { projectRegistration, projectUser, type IdentityEvent } from '../domain/users.ts';

/**
 * Three consumer groups (prefixed by the topic prefix, like every group), so that no kind of work
 * waits behind another's retries (docs/adr/0014):
 * - `notification.commands`: the e-mail commands (log-in, reset), whose links expire quickly;
 * - `notification.activity`: the users projection and the activity log, database only, never
 *   held up by an SMTP outage;
 * - `notification.mail`: the e-mail that events cause, retried with backoff and parked on the
 *   dead-letter topic after the last attempt, each e-mail sent once (sent_emails).
 */
export const COMMANDS_GROUP = 'notification.commands';
export const ACTIVITY_GROUP = 'notification.activity';
export const MAIL_GROUP = 'notification.mail';

export interface ConsumerOptions {
  /** Handler attempts before a message is parked on the dead-letter topic (default 8). */
  maxAttempts?: number;
  /** First backoff between attempts, doubling each time (default 250 ms). */
  retryBaseMs?: number;
}

export interface ConsumerDeps {
  db: Database;
  mailer: Mailer;
  links: LinkConfig;
  /** Who is mailed about overdue referee cases (docs/adr/0058). */
  adminEmails: readonly string[];
}

const CHALLENGE_EVENTS = [
  'ChallengeCreated',
  'ChallengeAccepted',
  'ChallengeRefused',
  'ChallengeVideoUploaded',
  'ChallengeSentToReferee',
  'ChallengeCompleted',
  'ChallengeFailed',
  'ChallengeCancelled',
  'ChallengeExpired',
  'ChallengeLiked',
  'ChallengeCommented',
  // A duel's side judged while the other goes on (docs/adr/0032, 0063).
  'DuelSideJudged',
] as const satisfies readonly ChallengeEventType[];

/** The same handler for every challenge event type (a duel's too). */
const forChallengeEvents = (handle: (event: ChallengeEvent) => Promise<void>): EventHandlers =>
  Object.fromEntries(CHALLENGE_EVENTS.map((type) => [type, handle]));

export async function startConsumers(
  runtime: ServiceRuntime,
  deps: ConsumerDeps,
  options: ConsumerOptions = {},
): Promise<EventConsumer> {
  const mail: MailDeps = { ...deps, logger: runtime.logger };
  const transaction = transactionRunner(deps.db);
  const common = {
    kafka: runtime.kafka,
    producer: runtime.producer,
    topicPrefix: runtime.topicPrefix,
    tracer: runtime.tracer,
    logger: runtime.logger,
    maxAttempts: options.maxAttempts,
    retryBaseMs: options.retryBaseMs,
  } satisfies Partial<EventConsumerOptions>;

  const project = async (event: Exclude<IdentityEvent, DomainEvent<'UserRegistered'>>) =>
    void (await handleOnce(transaction, ACTIVITY_GROUP, event.id, (tx) => projectUser(tx, event)));
  const record = async (event: ChallengeEvent) =>
    void (await handleOnce(transaction, ACTIVITY_GROUP, event.id, (tx) =>
      insertActivityEntries(tx, activityEntries(event)),
    ));

  const started = await Promise.allSettled([
    startEventConsumer({
      ...common,
      groupId: COMMANDS_GROUP,
      topics: [TOPICS.notificationCommands],
      handlers: {
        LoginLinkRequested: async (event) => void (await sendLoginLinkEmail(mail, event)),
        PasswordResetRequested: async (event) => void (await sendPasswordResetEmail(mail, event)),
        ChallengeShareRequested: async (event) => void (await sendChallengeShareEmail(mail, event)),
      },
    }),
    startEventConsumer({
      ...common,
      groupId: ACTIVITY_GROUP,
      topics: [TOPICS.identity, TOPICS.challenge],
      handlers: {
        // The commonest identity event, in one statement with its mark (docs/adr/0104).
        UserRegistered: async (event: DomainEvent<'UserRegistered'>) =>
          void (await projectRegistration(deps.db, ACTIVITY_GROUP, event)),
        UserProfileUpdated: project,
        UserDeleted: project,
        ...forChallengeEvents(record),
      },
    }),
    startEventConsumer({
      ...common,
      groupId: MAIL_GROUP,
      topics: [TOPICS.challenge, TOPICS.wallet, TOPICS.moderation, TOPICS.media],
      handlers: {
        ...forChallengeEvents((event) => sendChallengeEventMail(mail, event)),
        PayoutCompleted: (event: DomainEvent<'PayoutCompleted'>) => sendPayoutMail(mail, event),
        PaymentAccountChanged: (event: DomainEvent<'PaymentAccountChanged'>) =>
          sendPaymentAccountMail(mail, event),
        ReportResolved: (event: DomainEvent<'ReportResolved'>) =>
          sendReportOutcomeMail(mail, event),
        VideoProcessingFailed: (event: DomainEvent<'VideoProcessingFailed'>) =>
          sendVideoFailedMail(mail, event),
        RefereeCaseEscalated: (event: DomainEvent<'RefereeCaseEscalated'>) =>
          sendEscalationMail(mail, event),
      },
    }),
  ]);
  const consumers = started.flatMap((result) =>
    result.status === 'fulfilled' ? [result.value] : [],
  );
  const failed = started.find((result) => result.status === 'rejected');
  if (failed) {
    // Do not leave the groups that did start running behind a failed start.
    await Promise.allSettled(consumers.map((consumer) => consumer.stop()));
    throw failed.reason;
  }
  return {
    // The commands consumer, for callers that watch one; stop() stops all three.
    consumer: consumers[0]!.consumer,
    async stop() {
      await Promise.all(consumers.map((consumer) => consumer.stop()));
    },
  };
}
