import { UnhandleableEventError } from '@challenge/events';
import type { Logger } from 'pino';
import { transactionRunner, type Database } from '../data/db.ts';
import type { Mailer } from '../data/mailer.ts';
import {
  lockDelivery,
  markFailed,
  markSent,
  startAttempt,
  type DeliveryState,
} from '../data/sent-emails.ts';
import { renderEmail, type EmailTemplate, type Locale } from './templates/index.ts';

/**
 * Sends each e-mail at most once per event, and retries it until it is sent:
 *
 * 1. In one transaction, record the delivery under the event id and recipient (or find and lock
 *    the row of an earlier delivery of the same e-mail) and decide: already sent -> nothing to do; an attempt
 *    under way elsewhere -> try again later; otherwise count a new attempt.
 * 2. Send over SMTP, outside any transaction.
 * 3. Mark the row sent, or failed with the error, and rethrow: the consumer retries with backoff
 *    and, once it gives up, parks the event on the dead-letter topic; the row then says failed.
 *
 * The row never holds the body, the link or the code; errors are stored with those removed.
 */

/**
 * How long a pending attempt counts as under way. Longer than one attempt can take (the SMTP
 * timeouts in data/mailer.ts), shorter than the consumer's default retry span after a crash has
 * cost a rebalance, so an attempt cut short by a crash is retried rather than parked.
 */
export const DELIVERY_LEASE_MS = 45_000;

export interface EmailRequest {
  /** The event or command that asked for the e-mail: with the recipient, the idempotency key. */
  eventId: string;
  recipient: string;
  /**
   * Unique per e-mail, the local part of its Message-ID: the event id for a command (one
   * recipient), the event id and the recipient's user id for an event that mails several people.
   */
  messageId?: string;
  locale: Locale;
  template: EmailTemplate;
  /** After this the e-mail is useless (its link has expired): it is not sent any more. */
  expiresAt: Date | null;
  /** Values that must never be stored or logged (one-time links and codes). */
  secrets: string[];
}

export interface DeliveryDeps {
  db: Database;
  mailer: Mailer;
  logger: Logger;
}

export type DeliveryStep = 'send' | 'already-sent' | 'in-progress' | 'expired';

/** The rule of step 1, on the locked row. */
export function nextStep(
  state: DeliveryState,
  expiresAt: Date | null,
  leaseMs = DELIVERY_LEASE_MS,
): DeliveryStep {
  if (state.status === 'sent') return 'already-sent';
  if (
    state.status === 'pending' &&
    state.attemptedAt !== null &&
    state.now.getTime() - state.attemptedAt.getTime() < leaseMs
  ) {
    return 'in-progress';
  }
  if (expiresAt !== null && expiresAt.getTime() <= state.now.getTime()) return 'expired';
  return 'send';
}

export const EXPIRED_BEFORE_DELIVERY = 'expired before it could be sent';

/** Thrown so that the consumer tries again once the attempt under way has finished. */
export class DeliveryInProgressError extends Error {
  constructor(eventId: string) {
    super(`the e-mail of ${eventId} is being sent by another attempt`);
    this.name = 'DeliveryInProgressError';
  }
}

/** A failed attempt, its message free of secrets; safe to log and to put on the dead-letter topic. */
export class DeliveryFailedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DeliveryFailedError';
  }
}

/** An SMTP answer in the 5xx range: the relay refuses for good. */
export function isPermanentRefusal(error: unknown): boolean {
  const code = (error as { responseCode?: unknown } | null)?.responseCode;
  return typeof code === 'number' && code >= 500 && code < 600;
}

/** One line for the row and the logs: the error's code and message with every secret removed. */
export function describeFailure(error: unknown, secrets: string[]): string {
  const code = (error as { code?: unknown } | null)?.code;
  const message = error instanceof Error ? error.message : String(error);
  let line = typeof code === 'string' && !message.includes(code) ? `${code}: ${message}` : message;
  for (const secret of secrets.filter((value) => value.length > 0)) {
    line = line.replaceAll(secret, '[redacted]');
  }
  return line.slice(0, 1000);
}

export type DeliveryOutcome = 'sent' | 'already-sent' | 'expired';

export async function deliverOnce(
  deps: DeliveryDeps,
  request: EmailRequest,
): Promise<DeliveryOutcome> {
  const { db, mailer, logger } = deps;
  const { eventId } = request;
  const key = { eventId, recipient: request.recipient };
  const log = { eventId, template: request.template.name };

  const step = await transactionRunner(db)(async (tx) => {
    const state = await lockDelivery(tx, {
      ...key,
      template: request.template.name,
      locale: request.locale,
    });
    const decided = nextStep(state, request.expiresAt);
    if (decided === 'send') await startAttempt(tx, key);
    if (decided === 'expired') await markFailed(tx, key, EXPIRED_BEFORE_DELIVERY);
    return decided;
  });
  switch (step) {
    case 'already-sent':
      logger.debug(log, 'e-mail already sent for this event; nothing to do');
      return 'already-sent';
    case 'expired':
      logger.warn(log, 'e-mail expired before it could be sent; dropped');
      return 'expired';
    case 'in-progress':
      throw new DeliveryInProgressError(eventId);
    case 'send':
      break;
  }

  try {
    const email = renderEmail(request.template, request.locale);
    await mailer.send({ id: request.messageId ?? eventId, to: request.recipient, ...email });
  } catch (error) {
    const failure = describeFailure(error, request.secrets);
    await markFailed(db, key, failure);
    // A relay's 5xx answer (e.g. 550 no such mailbox) will not change on a retry: park it at
    // once, so it does not hold up the other mail of its partition. Anything else (the relay
    // down, 4xx) is retried until it passes.
    if (isPermanentRefusal(error)) throw new UnhandleableEventError(failure);
    throw new DeliveryFailedError(failure);
  }
  await markSent(db, key);
  logger.info(log, 'e-mail sent');
  return 'sent';
}
