import { LIST_DEPTH_MAX } from '@challenge/kit';
import type { Database, Transaction } from './db.ts';

export interface ProfileRecord {
  id: string;
  username: string;
  displayName: string | null;
  bio: string | null;
  avatar: string | null;
  roles: string[];
  challengeable: boolean;
  publicProfile: boolean;
  minimumChallengeEnabled: boolean;
  minimumChallengeValue: number;
  banType: string | null;
  deletionRequestedAt: Date | null;
}

const profileFields = {
  id: true,
  username: true,
  displayName: true,
  bio: true,
  avatar: true,
  roles: true,
  challengeable: true,
  publicProfile: true,
  minimumChallengeEnabled: true,
  minimumChallengeValue: true,
  banType: true,
  deletionRequestedAt: true,
} as const;

export function findProfileByUsername(
  db: Database,
  username: string,
): Promise<ProfileRecord | null> {
  return db.user.findUnique({
    where: { usernameKey: username.trim().toLowerCase() },
    select: profileFields,
  });
}

export function findProfileById(db: Database, id: string): Promise<ProfileRecord | null> {
  return db.user.findUnique({ where: { id }, select: profileFields });
}

export async function hasPassword(db: Database, id: string): Promise<boolean> {
  const user = await db.user.findUnique({ where: { id }, select: { passwordHash: true } });
  return Boolean(user?.passwordHash);
}

export type ProfileChange = Partial<
  Pick<
    ProfileRecord,
    | 'displayName'
    | 'bio'
    | 'avatar'
    | 'challengeable'
    | 'publicProfile'
    | 'minimumChallengeEnabled'
    | 'minimumChallengeValue'
  >
> & { hideAvailableAmount?: boolean; showPrivateChallenges?: boolean };

/** The stored avatar key, the user's row locked until the transaction ends. */
export async function lockAvatarKey(tx: Transaction, id: string): Promise<string | null> {
  const rows = await tx.$queryRaw<{ avatar: string | null }[]>`
    SELECT avatar FROM users WHERE id = ${id}::uuid FOR UPDATE`;
  return rows[0]?.avatar ?? null;
}

export function updateProfileFields(tx: Transaction, id: string, change: ProfileChange) {
  return tx.user.update({
    where: { id },
    data: change,
    select: { ...profileFields, locale: true },
  });
}

export function markDeletionRequested(tx: Transaction, id: string, at: Date): Promise<unknown> {
  return tx.user.update({
    where: { id },
    data: { deletionRequestedAt: at, status: 'deletion_requested' },
  });
}

export async function follow(
  db: Database | Transaction,
  followerId: string,
  followeeId: string,
): Promise<boolean> {
  // Raw SQL: Prisma compiles every createMany anew (its plan cache skips them; docs/adr/0104).
  const created = await db.$executeRaw`
    INSERT INTO follows (follower_id, followee_id) VALUES (${followerId}::uuid, ${followeeId}::uuid)
    ON CONFLICT DO NOTHING`;
  return created === 1;
}

export async function unfollow(
  db: Database | Transaction,
  followerId: string,
  followeeId: string,
): Promise<boolean> {
  const deleted = await db.follow.deleteMany({ where: { followerId, followeeId } });
  return deleted.count === 1;
}

export async function isFollowing(
  db: Database,
  followerId: string,
  followeeId: string,
): Promise<boolean> {
  return (await db.follow.count({ where: { followerId, followeeId } })) > 0;
}

export async function followCounts(
  db: Database,
  id: string,
): Promise<{ followers: number; following: number }> {
  const [followers, following] = await Promise.all([
    db.follow.count({ where: { followeeId: id } }),
    db.follow.count({ where: { followerId: id } }),
  ]);
  return { followers, following };
}

/** One page of followers (or followed users), newest first. */
export async function followPage(
  db: Database,
  id: string,
  direction: 'followers' | 'following',
  page: { skip: number; take: number },
) {
  const where = direction === 'followers' ? { followeeId: id } : { followerId: id };
  const [rows, total] = await Promise.all([
    db.follow.findMany({
      where,
      orderBy: { createdAt: 'desc' },
      skip: page.skip,
      take: page.take,
      select: {
        follower: { select: { id: true, username: true, displayName: true, avatar: true } },
        followee: { select: { id: true, username: true, displayName: true, avatar: true } },
      },
    }),
    db.follow.count({ where, take: LIST_DEPTH_MAX }),
  ]);
  return {
    users: rows.map((row) => (direction === 'followers' ? row.follower : row.followee)),
    total,
  };
}

export async function walletState(db: Database, userId: string) {
  return db.walletState.findUnique({ where: { userId } });
}

/** Keeps the newest report only: a redelivered or late older one changes nothing. */
export async function saveWalletState(
  tx: Transaction,
  state: { userId: string; balanceCents: bigint; openPayoutCents: bigint; version: bigint },
): Promise<void> {
  await tx.$executeRaw`
    INSERT INTO wallet_states (user_id, balance_cents, open_payout_cents, version, updated_at)
    VALUES (${state.userId}::uuid, ${state.balanceCents}, ${state.openPayoutCents}, ${state.version}, now())
    ON CONFLICT (user_id) DO UPDATE
      SET balance_cents = EXCLUDED.balance_cents, open_payout_cents = EXCLUDED.open_payout_cents,
          version = EXCLUDED.version, updated_at = now()
      WHERE wallet_states.version < EXCLUDED.version`;
}

/**
 * discoverUsers: public, active accounts, newest first (the users (created_at, id) index), and
 * how many there are.
 */
export async function discoverUserPage(
  db: Database,
  window: { skip: number; take: number },
): Promise<{
  users: { id: string; username: string; displayName: string | null; avatar: string | null }[];
  total: number;
}> {
  const where = {
    publicProfile: true,
    banType: null,
    deletionRequestedAt: null,
  } as const;
  const [users, total] = await Promise.all([
    db.user.findMany({
      where,
      orderBy: [{ createdAt: 'desc' }, { id: 'asc' }],
      select: { id: true, username: true, displayName: true, avatar: true },
      ...window,
    }),
    db.user.count({ where, take: LIST_DEPTH_MAX }),
  ]);
  return { users, total };
}
