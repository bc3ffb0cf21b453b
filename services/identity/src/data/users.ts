import { randomUUID } from 'node:crypto';
import type { BanType, Role, UserStatus } from './generated/enums.ts';
import type { Database, Transaction } from './db.ts';
import { Prisma } from './generated/client.ts';

export interface UserRecord {
  id: string;
  email: string;
  username: string;
  displayName: string | null;
  bio: string | null;
  avatar: string | null;
  locale: string;
  roles: Role[];
  status: UserStatus;
  showPrivateChallenges: boolean;
  hideAvailableAmount: boolean;
  banType: BanType | null;
  bannedAt: Date | null;
  banReason: string | null;
  deletionRequestedAt: Date | null;
  /** Tokens carry it (claim `sv`); a password change or reset raises it. */
  sessionVersion: number;
}

/** What log-in needs beyond the public record: never returned through the API. */
export interface UserCredentials extends UserRecord {
  passwordHash: string | null;
}

const userFields = {
  id: true,
  email: true,
  username: true,
  displayName: true,
  bio: true,
  avatar: true,
  locale: true,
  roles: true,
  status: true,
  showPrivateChallenges: true,
  hideAvailableAmount: true,
  banType: true,
  bannedAt: true,
  banReason: true,
  deletionRequestedAt: true,
  sessionVersion: true,
} as const;

/** `userFields` in SQL, for a raw statement's RETURNING. */
const USER_COLUMNS = Prisma.sql`id::text AS id, email, username, display_name AS "displayName", bio,
  avatar, locale, roles::text[] AS roles, status::text AS status,
  show_private_challenges AS "showPrivateChallenges", hide_available_amount AS "hideAvailableAmount",
  ban_type::text AS "banType", banned_at AS "bannedAt", ban_reason AS "banReason",
  deletion_requested_at AS "deletionRequestedAt", session_version AS "sessionVersion"`;

export function findUserById(db: Database, id: string): Promise<UserRecord | null> {
  return db.user.findUnique({ where: { id }, select: userFields });
}

export function findUserByEmail(
  db: Database | Transaction,
  email: string,
): Promise<UserRecord | null> {
  return db.user.findUnique({ where: { email }, select: userFields });
}

/** A unique column that another row already holds. */
export class DuplicateUserError extends Error {
  constructor(readonly field: 'email' | 'username') {
    super(`duplicate ${field}`);
  }
}

export function findCredentialsByUsername(
  db: Database,
  username: string,
): Promise<UserCredentials | null> {
  return db.user.findUnique({
    where: { usernameKey: username.trim().toLowerCase() },
    select: { ...userFields, passwordHash: true },
  });
}

export function findCredentialsByEmail(
  db: Database,
  email: string,
): Promise<UserCredentials | null> {
  return db.user.findUnique({ where: { email }, select: { ...userFields, passwordHash: true } });
}

export function findCredentialsById(db: Database, id: string): Promise<UserCredentials | null> {
  return db.user.findUnique({ where: { id }, select: { ...userFields, passwordHash: true } });
}

export function updatePasswordHash(
  db: Database | Transaction,
  id: string,
  passwordHash: string,
): Promise<unknown> {
  return db.user.update({ where: { id }, data: { passwordHash } });
}

export function updateBan(
  tx: Transaction,
  id: string,
  ban:
    | { banType: BanType; bannedAt: Date; banReason: string | null }
    | { banType: null; bannedAt: null; banReason: null },
): Promise<UserRecord> {
  return tx.user.update({
    where: { id },
    data: { ...ban, status: ban.banType ? 'banned' : 'active' },
    select: userFields,
  });
}

export interface NewUserRow {
  email: string;
  username: string;
  locale: string;
  roles: Role[];
  displayName: string | null;
  passwordHash?: string | null;
  birthday?: Date | null;
  phoneNumber?: string | null;
  eighteenPlusContent?: boolean;
  termsAcceptedAt?: Date | null;
}

/**
 * Inserts the account unless its e-mail or username (in any case) is taken. One statement on the
 * common path: `ON CONFLICT DO NOTHING` (skipDuplicates) rather than a lookup of each before the
 * insert, and a taken name does not abort the caller's transaction (a unique violation would), so
 * a sign-up's transaction still commits what it counted. A concurrent sign-up of the same name
 * makes this insert wait for it and then do nothing, and the lookup after it sees the winner.
 */
export async function insertUser(tx: Transaction, user: NewUserRow): Promise<UserRecord> {
  const usernameKey = user.username.toLowerCase();
  // Raw SQL: Prisma compiles every createMany anew (its plan cache skips them), 0.8 ms of CPU a
  // sign-up (docs/adr/0104). Timestamps as Prisma writes them: UTC, without a zone.
  const [created] = await tx.$queryRaw<UserRecord[]>`
    INSERT INTO users (id, email, username, username_key, locale, roles, display_name,
                       password_hash, birthday, phone_number, eighteen_plus_content,
                       terms_accepted_at, updated_at)
    VALUES (${randomUUID()}::uuid, ${user.email}, ${user.username}, ${usernameKey}, ${user.locale},
            ${user.roles}::"Role"[], ${user.displayName}, ${user.passwordHash ?? null},
            ${user.birthday ? user.birthday.toISOString().slice(0, 10) : null}::date,
            ${user.phoneNumber ?? null}, ${user.eighteenPlusContent ?? false},
            ${user.termsAcceptedAt ?? null}::timestamp(3), ${new Date()}::timestamp(3))
    ON CONFLICT DO NOTHING
    RETURNING ${USER_COLUMNS}`;
  if (created) return created;
  const holders = await tx.user.findMany({
    where: { OR: [{ email: user.email }, { usernameKey }] },
    select: { usernameKey: true },
  });
  // The username is named first when both are taken, as the form asks for it first.
  throw new DuplicateUserError(
    holders.some((holder) => holder.usernameKey === usernameKey) || holders.length === 0
      ? 'username'
      : 'email',
  );
}
