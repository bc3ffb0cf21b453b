import type { Database, Transaction } from './db.ts';

export function markVerified(tx: Transaction, id: string, at: Date) {
  return tx.user.update({
    where: { id },
    data: { verifiedAt: at, status: 'active' },
    select: { id: true },
  });
}

export function findVerification(db: Database, id: string) {
  return db.user.findUnique({
    where: { id },
    select: { id: true, verifiedAt: true, banType: true },
  });
}

/** Accounts whose deletion request is older than `before`, locked so that one sweeper takes each. */
export async function lockDueDeletions(
  tx: Transaction,
  before: Date,
  limit: number,
): Promise<string[]> {
  const rows = await tx.$queryRaw<{ id: string }[]>`
    SELECT id FROM users
    WHERE status = 'deletion_requested' AND deletion_requested_at < ${before}
    ORDER BY deletion_requested_at LIMIT ${limit} FOR UPDATE SKIP LOCKED`;
  return rows.map((row) => row.id);
}

/**
 * Erases personal data. The username stays (it is permanent and others' challenges refer to it);
 * the e-mail becomes a unique placeholder so that the address can register again.
 */
export function erasePersonalData(tx: Transaction, id: string) {
  return tx.user.update({
    where: { id },
    data: {
      status: 'deleted',
      email: `deleted-${id}@deleted.invalid`,
      displayName: null,
      bio: null,
      avatar: null,
      passwordHash: null,
      phoneNumber: null,
      birthday: null,
      publicProfile: false,
      challengeable: false,
    },
  });
}

export async function removeFollowsOf(tx: Transaction, id: string): Promise<void> {
  await tx.follow.deleteMany({ where: { OR: [{ followerId: id }, { followeeId: id }] } });
}
