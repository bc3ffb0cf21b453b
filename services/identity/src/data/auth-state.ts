import type { Database, Transaction } from './db.ts';

/** Token state identity keeps in its database: the truth that Redis mirrors (ADR 20). */

export interface SessionState {
  userId: string;
  sessionVersion: number;
  sessionKeptTokenId: string | null;
}

/**
 * Raises the account's session version (locking the row, so concurrent raises are ordered) and
 * returns the new state.
 */
export async function raiseSessionVersion(
  tx: Transaction,
  userId: string,
  keptTokenId: string | null,
): Promise<SessionState> {
  const row = await tx.user.update({
    where: { id: userId },
    data: { sessionVersion: { increment: 1 }, sessionKeptTokenId: keptTokenId },
    select: { id: true, sessionVersion: true, sessionKeptTokenId: true },
  });
  return {
    userId: row.id,
    sessionVersion: row.sessionVersion,
    sessionKeptTokenId: row.sessionKeptTokenId,
  };
}

export async function insertRevokedToken(
  db: Database | Transaction,
  token: { tokenId: string; userId: string; expiresAt: Date },
): Promise<void> {
  await db.revokedToken.upsert({ where: { tokenId: token.tokenId }, create: token, update: {} });
}

/** Everything the Redis mirror must hold, in pages of `take` users or tokens. */
export function listRaisedSessions(db: Database, afterId: string | null, take: number) {
  return db.user.findMany({
    where: { sessionVersion: { gt: 0 }, ...(afterId ? { id: { gt: afterId } } : {}) },
    orderBy: { id: 'asc' },
    take,
    select: { id: true, sessionVersion: true, sessionKeptTokenId: true },
  });
}

export function listBannedUserIds(db: Database, afterId: string | null, take: number) {
  return db.user
    .findMany({
      where: { banType: { not: null }, ...(afterId ? { id: { gt: afterId } } : {}) },
      orderBy: { id: 'asc' },
      take,
      select: { id: true },
    })
    .then((rows) => rows.map((row) => row.id));
}

/** Of these ids, the accounts this database holds that are not banned. */
export function findUnbannedAmong(db: Database, ids: string[]): Promise<string[]> {
  return db.user
    .findMany({ where: { id: { in: ids }, banType: null }, select: { id: true } })
    .then((rows) => rows.map((row) => row.id));
}

export function listLiveRevokedTokens(
  db: Database,
  now: Date,
  afterId: string | null,
  take: number,
) {
  return db.revokedToken.findMany({
    where: { expiresAt: { gt: now }, ...(afterId ? { tokenId: { gt: afterId } } : {}) },
    orderBy: { tokenId: 'asc' },
    take,
    select: { tokenId: true, expiresAt: true },
  });
}

export async function deleteExpiredRevokedTokens(db: Database, now: Date): Promise<number> {
  return (await db.revokedToken.deleteMany({ where: { expiresAt: { lte: now } } })).count;
}

// Failed codes and links per address.

export async function lockLoginFailure(tx: Transaction, email: string) {
  const rows = await tx.$queryRaw<unknown[]>`
    SELECT 1 FROM login_failures WHERE email = ${email} FOR UPDATE`;
  return rows.length
    ? tx.loginFailure.findUnique({
        where: { email },
        select: { failures: true, lastFailureAt: true, lockedUntil: true },
      })
    : null;
}

export async function saveLoginFailure(
  tx: Transaction,
  email: string,
  state: { failures: number; lastFailureAt: Date; lockedUntil: Date | null },
): Promise<void> {
  // Two first failures at once must not collide on the key: create the row if needed, then set.
  await tx.$executeRaw`
    INSERT INTO login_failures (email, failures, last_failure_at)
    VALUES (${email}, 0, CURRENT_TIMESTAMP) ON CONFLICT (email) DO NOTHING`;
  await tx.loginFailure.update({ where: { email }, data: state });
}

// Forgot-password requests, carried out after the answer.

export async function insertPasswordResetRequest(db: Database, email: string): Promise<void> {
  await db.passwordResetRequest.create({ data: { email } });
}

/** The oldest waiting requests, locked so that two workers never carry out one request twice. */
export function lockPasswordResetRequests(tx: Transaction, take: number) {
  return tx.$queryRaw<{ id: string; email: string }[]>`
    SELECT id, email FROM password_reset_requests
    ORDER BY created_at LIMIT ${take} FOR UPDATE SKIP LOCKED`;
}

export async function deletePasswordResetRequest(tx: Transaction, id: string): Promise<void> {
  await tx.passwordResetRequest.delete({ where: { id } });
}
