import type { Transaction } from './db.ts';

export function insertPasswordReset(
  tx: Transaction,
  reset: { userId: string; tokenHash: string; expiresAt: Date },
): Promise<unknown> {
  return tx.passwordReset.create({ data: reset });
}

/** The reset for a token hash, locked so that two uses of one token cannot both succeed. */
export async function lockPasswordReset(tx: Transaction, tokenHash: string) {
  const [row] = await tx.$queryRaw<{ id: string }[]>`
    SELECT id FROM password_resets WHERE token_hash = ${tokenHash} FOR UPDATE`;
  return row ? tx.passwordReset.findUniqueOrThrow({ where: { id: row.id } }) : null;
}

export function markPasswordResetUsed(tx: Transaction, id: string): Promise<unknown> {
  return tx.passwordReset.update({ where: { id }, data: { usedAt: new Date() } });
}
