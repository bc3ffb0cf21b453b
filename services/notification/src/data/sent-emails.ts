import type { Database, Transaction } from './db.ts';
import type { SentEmailStatus } from './generated/enums.ts';

export type DeliveryStatus = SentEmailStatus;

/** What a new delivery records: no body, no link, no code. */
export interface NewDelivery {
  eventId: string;
  template: string;
  recipient: string;
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
  await tx.sentEmail.createMany({ data: [delivery], skipDuplicates: true });
  const [row] = await tx.$queryRaw<DeliveryState[]>`
    SELECT status::text AS status, attempts, attempted_at AS "attemptedAt", now() AS now
      FROM sent_emails WHERE event_id = ${delivery.eventId}::uuid FOR UPDATE`;
  if (!row) throw new Error(`sent_emails row of ${delivery.eventId} vanished`);
  return row;
}

/** Counts an attempt that starts now; the row stays pending until it is marked sent or failed. */
export async function startAttempt(tx: Transaction, eventId: string): Promise<void> {
  await tx.$executeRaw`
    UPDATE sent_emails SET status = 'pending', attempts = attempts + 1, attempted_at = now(), updated_at = now()
     WHERE event_id = ${eventId}::uuid`;
}

export async function markSent(db: Database | Transaction, eventId: string): Promise<void> {
  await db.sentEmail.update({
    where: { eventId },
    data: { status: 'sent', sentAt: new Date() },
  });
}

export async function markFailed(
  db: Database | Transaction,
  eventId: string,
  error: string,
): Promise<void> {
  await db.sentEmail.update({ where: { eventId }, data: { status: 'failed', lastError: error } });
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

export function findSentEmail(
  db: Database | Transaction,
  eventId: string,
): Promise<SentEmailRecord | null> {
  return db.sentEmail.findUnique({
    where: { eventId },
    select: {
      eventId: true,
      template: true,
      recipient: true,
      locale: true,
      status: true,
      attempts: true,
      lastError: true,
      sentAt: true,
    },
  });
}
