import type { Database } from './db.ts';

/*
 * Invitations an address does not want (docs/adr/0074): the per-address opt-out list, and the
 * marketing choice of the account that has the address, if any.
 */

export async function isOptedOut(db: Database, email: string): Promise<boolean> {
  const row = await db.invitationOptOut.findUnique({ where: { email }, select: { email: true } });
  return row !== null;
}

/** Adds or removes the address; true when it is on the list afterwards. Idempotent. */
export async function setOptedOut(db: Database, email: string, optedOut: boolean) {
  if (optedOut) {
    // Raw SQL: Prisma compiles every createMany anew (its plan cache skips them; docs/adr/0104).
    await db.$executeRaw`INSERT INTO invitation_opt_outs (email) VALUES (${email}) ON CONFLICT DO NOTHING`;
  } else {
    await db.invitationOptOut.deleteMany({ where: { email } });
  }
  return optedOut;
}

/** Whether a live account with this address turned marketing e-mail off (explicitly). */
export async function accountRefusesMarketing(db: Database, email: string): Promise<boolean> {
  const rows = await db.$queryRaw<{ marketing: boolean | null }[]>`
    SELECT p.marketing FROM users u JOIN email_preferences p ON p.user_id = u.id
     WHERE u.email = ${email} AND u.deleted_at IS NULL`;
  return rows.some((row) => row.marketing === false);
}
