import { handleOnceInStatement, type ProcessedMark } from '@challenge/events';
import type { Database, Transaction } from './db.ts';
import { Prisma } from './generated/client.ts';

/** A user as notification knows them (the projection of identity's events). */
export interface KnownUser {
  id: string;
  email: string | null;
  username: string | null;
  displayName: string | null;
  locale: string;
  /** Set once the account is deleted: the personal fields are then null. */
  deletedAt: Date | null;
}

const userFields = {
  id: true,
  email: true,
  username: true,
  displayName: true,
  locale: true,
  deletedAt: true,
} as const;

/**
 * UserRegistered in one statement (docs/adr/0104) instead of a transaction of two: the consumer's
 * processed-event mark and, only when it is new, the account. A deleted account is never brought
 * back (a replayed registration). False when the event was handled before.
 */
export async function projectRegistrationOnce(
  db: Database,
  mark: ProcessedMark,
  user: { id: string; email: string; username: string; locale: string },
): Promise<boolean> {
  return handleOnceInStatement(
    db,
    Prisma.sql,
    mark,
    Prisma.sql`known AS (
      INSERT INTO users (id, email, username, locale, updated_at)
      SELECT ${user.id}::uuid, ${user.email}, ${user.username}, ${user.locale}, now() FROM processed
      ON CONFLICT (id) DO UPDATE
         SET email = excluded.email, username = excluded.username, locale = excluded.locale,
             updated_at = now()
       WHERE users.deleted_at IS NULL
    )`,
  );
}

/** A profile change of a known, live account; an unknown one is left alone. */
export async function updateUserProfile(
  tx: Transaction,
  change: { id: string; displayName: string | null; locale: string },
): Promise<void> {
  await tx.user.updateMany({
    where: { id: change.id, deletedAt: null },
    data: { displayName: change.displayName, locale: change.locale },
  });
}

/** Erases the personal data and keeps a tombstone; returns the address the account had. */
export async function eraseUser(tx: Transaction, id: string): Promise<string | null> {
  const existing = await tx.user.findUnique({ where: { id }, select: { email: true } });
  await tx.user.upsert({
    where: { id },
    create: { id, deletedAt: new Date() },
    update: { email: null, username: null, displayName: null, deletedAt: new Date() },
  });
  await tx.emailPreferences.deleteMany({ where: { userId: id } });
  return existing?.email ?? null;
}

export function findUser(db: Database | Transaction, id: string): Promise<KnownUser | null> {
  return db.user.findUnique({ where: { id }, select: userFields });
}

export async function findUsers(
  db: Database | Transaction,
  ids: string[],
): Promise<Map<string, KnownUser>> {
  if (ids.length === 0) return new Map();
  const rows = await db.user.findMany({ where: { id: { in: ids } }, select: userFields });
  return new Map(rows.map((row) => [row.id, row]));
}

/**
 * Live accounts by address, case-insensitively (for staff addresses from the environment), keyed
 * by the lower-cased address.
 */
export async function findUsersByEmail(
  db: Database | Transaction,
  emails: string[],
): Promise<Map<string, KnownUser>> {
  if (emails.length === 0) return new Map();
  const lowered = emails.map((email) => email.toLowerCase());
  const rows = await db.$queryRaw<KnownUser[]>`
    SELECT id::text AS id, email, username, display_name AS "displayName", locale,
           deleted_at AS "deletedAt"
      FROM users
     WHERE deleted_at IS NULL AND lower(email) = ANY(${lowered})`;
  return new Map(rows.map((row) => [row.email!.toLowerCase(), row]));
}
