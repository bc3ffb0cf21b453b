import { handleOnceInStatement, type ProcessedMark } from '@challenge/events';
import type { Database, Transaction } from './db.ts';
import { Prisma } from './generated/client.ts';

/** A user as challenge knows them: the projection of identity's events (docs/adr/0026). */
export interface KnownUserRecord {
  id: string;
  username: string;
  email: string;
  challengeable: boolean;
  minimumChallengeCents: number | null;
  birthday: Date | null;
  banned: boolean;
  deletedAt: Date | null;
}

const userFields = {
  id: true,
  username: true,
  email: true,
  challengeable: true,
  minimumChallengeCents: true,
  birthday: true,
  banned: true,
  deletedAt: true,
} as const;

/**
 * UserRegistered in one statement (docs/adr/0104) instead of a transaction of three: the
 * consumer's processed-event mark and, only when the mark is new, the account and the claim of
 * the challenges sent to its address before it existed. A replayed registration changes the names;
 * a deleted account is never brought back; settings, ban and birthday events that came first
 * (another partition order) are kept. False when the event was handled before.
 */
export async function projectRegistrationOnce(
  db: Database,
  mark: ProcessedMark,
  user: { id: string; username: string; email: string; birthday: Date | null },
): Promise<boolean> {
  const email = user.email.toLowerCase();
  return handleOnceInStatement(
    db,
    Prisma.sql,
    mark,
    Prisma.sql`known AS (
      INSERT INTO known_users (id, username, username_key, email, birthday, updated_at)
      SELECT ${user.id}::uuid, ${user.username}, ${user.username.toLowerCase()}, ${email},
             ${user.birthday}::date, now()
        FROM processed
      ON CONFLICT (id) DO UPDATE
         SET username = excluded.username, username_key = excluded.username_key,
             email = excluded.email, birthday = COALESCE(excluded.birthday, known_users.birthday),
             updated_at = now()
       WHERE known_users.deleted_at IS NULL
    ), claimed AS (
      UPDATE challenges SET challenged_user_id = ${user.id}::uuid, updated_at = ${new Date()}::timestamp(3)
       WHERE challenged_email = ${email} AND challenged_user_id IS NULL
         AND owner_id <> ${user.id}::uuid AND EXISTS (SELECT 1 FROM processed)
    )`,
  );
}

/** Changes fields of a known, live account; an unknown account is left alone. */
export async function updateKnownUser(
  db: Database | Transaction,
  id: string,
  change: Partial<
    Pick<KnownUserRecord, 'challengeable' | 'minimumChallengeCents' | 'birthday' | 'banned'>
  >,
): Promise<void> {
  await db.knownUser.updateMany({
    where: { id, deletedAt: null },
    data: { ...change, updatedAt: new Date() },
  });
}

/** Erases the personal fields and keeps a tombstone, so a replayed registration stays erased. */
export async function eraseKnownUser(db: Database | Transaction, id: string): Promise<void> {
  await db.knownUser.updateMany({
    where: { id },
    data: {
      username: `deleted-${id}`,
      usernameKey: `deleted-${id}`,
      email: `deleted-${id}@invalid`,
      birthday: null,
      challengeable: false,
      deletedAt: new Date(),
    },
  });
}

export function findKnownUser(
  db: Database | Transaction,
  id: string,
): Promise<KnownUserRecord | null> {
  return db.knownUser.findFirst({ where: { id, deletedAt: null }, select: userFields });
}

export function findKnownUserByUsername(
  db: Database | Transaction,
  username: string,
): Promise<KnownUserRecord | null> {
  return db.knownUser.findFirst({
    where: { usernameKey: username.toLowerCase(), deletedAt: null },
    select: userFields,
  });
}

export async function findKnownUsersByEmail(
  db: Database | Transaction,
  emails: string[],
): Promise<Map<string, KnownUserRecord>> {
  if (emails.length === 0) return new Map();
  const rows = await db.knownUser.findMany({
    where: { email: { in: emails }, deletedAt: null },
    select: userFields,
  });
  return new Map(rows.map((row) => [row.email, row]));
}
