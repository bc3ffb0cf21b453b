import type { LoginPurpose } from './generated/enums.ts';
import type { Database, Transaction } from './db.ts';

export interface LoginChallengeRecord {
  id: string;
  email: string;
  purpose: LoginPurpose;
  codeHash: string;
  linkHash: string;
  originUrl: string;
  expiresAt: Date;
  failedAttempts: number;
  verifiedAt: Date | null;
  consumedAt: Date | null;
}

/** A new challenge replaces every open one of the address: only the newest link and code work. */
export async function replaceLoginChallenge(
  tx: Transaction,
  challenge: Omit<LoginChallengeRecord, 'id' | 'failedAttempts' | 'verifiedAt' | 'consumedAt'>,
): Promise<void> {
  await tx.loginChallenge.updateMany({
    where: { email: challenge.email, consumedAt: null },
    data: { consumedAt: new Date() },
  });
  await tx.loginChallenge.create({ data: challenge });
}

/** The newest unconsumed challenge of an address, locked for the rest of the transaction. */
export async function lockOpenChallenge(
  tx: Transaction,
  email: string,
): Promise<LoginChallengeRecord | null> {
  const [row] = await tx.$queryRaw<{ id: string }[]>`
    SELECT id FROM login_challenges WHERE email = ${email} AND consumed_at IS NULL
    ORDER BY created_at DESC LIMIT 1 FOR UPDATE`;
  return row ? tx.loginChallenge.findUniqueOrThrow({ where: { id: row.id } }) : null;
}

export function recordFailedAttempt(tx: Transaction, id: string): Promise<unknown> {
  return tx.loginChallenge.update({ where: { id }, data: { failedAttempts: { increment: 1 } } });
}

export function markChallenge(
  tx: Transaction,
  id: string,
  change: { verifiedAt?: Date; consumedAt?: Date },
): Promise<unknown> {
  return tx.loginChallenge.update({ where: { id }, data: change });
}

export function countChallenges(db: Database, email: string): Promise<number> {
  return db.loginChallenge.count({ where: { email } });
}
