import { randomUUID } from 'node:crypto';
import type { Database, Transaction } from './db.ts';
import type { SentEmailStatus } from './generated/enums.ts';

export type DeliveryStatus = SentEmailStatus;

/** One e-mail: the event that asked for it and its recipient (an event may mail several people). */
export interface DeliveryKey {
  eventId: string;
  recipient: string;
}

/** What a new delivery records: no body, no link, no code. */
export interface NewDelivery extends DeliveryKey {
  template: string;
  locale: string;
}

export interface DeliveryState {
  status: DeliveryStatus;
  attempts: number;
  attemptedAt: Date | null;
  /** The database's clock, so that lease checks never compare two machines' clocks. */
  now: Date;
}

/**
 * Records the delivery when it is new and locks its row until the transaction ends, so that two
 * consumers handling the same event at once take turns.
 */
export async function lockDelivery(tx: Transaction, delivery: NewDelivery): Promise<DeliveryState> {
  // Raw SQL: Prisma compiles every createMany anew (its plan cache skips them; docs/adr/0104).
  await tx.$executeRaw`
    INSERT INTO sent_emails (event_id, template, recipient, locale, updated_at)
    VALUES (${delivery.eventId}::uuid, ${delivery.template}, ${delivery.recipient},
            ${delivery.locale}, ${new Date()}::timestamp(3))
    ON CONFLICT DO NOTHING`;
  const [row] = await tx.$queryRaw<DeliveryState[]>`
    SELECT status::text AS status, attempts, attempted_at AS "attemptedAt", now() AS now
      FROM sent_emails
     WHERE event_id = ${delivery.eventId}::uuid AND recipient = ${delivery.recipient}
       FOR UPDATE`;
  if (!row) throw new Error(`sent_emails row of ${delivery.eventId} vanished`);
  return row;
}

/** Counts an attempt that starts now; the row stays pending until it is marked sent or failed. */
export async function startAttempt(tx: Transaction, key: DeliveryKey): Promise<void> {
  await tx.$executeRaw`
    UPDATE sent_emails SET status = 'pending', attempts = attempts + 1, attempted_at = now(), updated_at = now()
     WHERE event_id = ${key.eventId}::uuid AND recipient = ${key.recipient}`;
}

const unique = (key: DeliveryKey) => ({ eventId_recipient: key });

export async function markSent(db: Database | Transaction, key: DeliveryKey): Promise<void> {
  await db.sentEmail.update({
    where: unique(key),
    data: { status: 'sent', sentAt: new Date() },
  });
}

export async function markFailed(
  db: Database | Transaction,
  key: DeliveryKey,
  error: string,
): Promise<void> {
  await db.sentEmail.update({ where: unique(key), data: { status: 'failed', lastError: error } });
}

export interface SentEmailRecord {
  eventId: string;
  template: string;
  recipient: string;
  locale: string;
  status: DeliveryStatus;
  attempts: number;
  lastError: string | null;
  sentAt: Date | null;
}

const recordFields = {
  eventId: true,
  template: true,
  recipient: true,
  locale: true,
  status: true,
  attempts: true,
  lastError: true,
  sentAt: true,
} as const;

/** The e-mails an event asked for, by recipient. */
export function findSentEmails(
  db: Database | Transaction,
  eventId: string,
): Promise<SentEmailRecord[]> {
  return db.sentEmail.findMany({
    where: { eventId },
    select: recordFields,
    orderBy: { recipient: 'asc' },
  });
}

/** The e-mail of an event with one recipient (a command), or of one recipient of an event. */
export async function findSentEmail(
  db: Database | Transaction,
  eventId: string,
  recipient?: string,
): Promise<SentEmailRecord | null> {
  return db.sentEmail.findFirst({
    where: { eventId, ...(recipient ? { recipient } : {}) },
    select: recordFields,
  });
}

/** Erasure (UserDeleted): the delivery log keeps no address of a deleted account. */
export async function forgetRecipient(tx: Transaction, address: string): Promise<void> {
  await tx.sentEmail.updateMany({
    where: { recipient: address },
    data: { recipient: `erased:${randomUUID()}` },
  });
}
