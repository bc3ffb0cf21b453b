import { handleOnceInStatement, type ProcessedMark } from '@challenge/events';
import type { Database, Transaction } from './db.ts';
import { Prisma } from './generated/client.ts';

export interface KnownChallengeRecord {
  id: string;
  slug: string;
  name: string;
  ownerId: string;
  challengedUserId: string | null;
  visibility: string | null;
  videoId: string | null;
  ended: boolean;
  moderation: string | null;
}

export interface ChallengeSnapshotRow {
  id: string;
  slug: string;
  name: string;
  ownerId: string;
  challengedUserId: string | null;
  videoId?: string;
  ended?: boolean;
}

/** Creates or refreshes the projection of one challenge from an event's snapshot. */
export async function upsertKnownChallenge(tx: Transaction, row: ChallengeSnapshotRow) {
  const { id, ...fields } = row;
  await tx.knownChallenge.upsert({
    where: { id },
    create: row,
    // Once ended, always ended: a late event about the challenge never reopens it here.
    update: { ...fields, ...(row.ended ? { ended: true } : { ended: undefined }) },
  });
}

/**
 * Sets a challenge's visibility unless a newer one is already held: ChallengeCreated is version 0,
 * each ChallengeVisibilityChanged carries its own. A conditional update, so any order of arrival
 * (a replayed or parked event) ends on the newest visibility, as in media (docs/adr/0056).
 */
export async function applyKnownVisibility(
  tx: Transaction,
  id: string,
  visibility: 'public' | 'private',
  version: number,
): Promise<void> {
  await tx.knownChallenge.updateMany({
    where: {
      id,
      OR: [{ visibilityVersion: null }, { visibilityVersion: { lt: version } }],
    },
    data: { visibility, visibilityVersion: version },
  });
}

export function findKnownChallenge(
  db: Database | Transaction,
  id: string,
): Promise<KnownChallengeRecord | null> {
  return db.knownChallenge.findUnique({
    where: { id },
    select: {
      id: true,
      slug: true,
      name: true,
      ownerId: true,
      challengedUserId: true,
      visibility: true,
      videoId: true,
      ended: true,
      moderation: true,
    },
  });
}

/**
 * Marks a challenge offline (since `now`) or removed unless it already is; true when this call
 * changed it.
 */
export async function setChallengeModeration(
  tx: Transaction,
  id: string,
  moderation: 'offline' | 'removed',
  now: Date,
): Promise<boolean> {
  const allowedFrom = moderation === 'offline' ? [null] : [null, 'offline'];
  const { count } = await tx.knownChallenge.updateMany({
    where: {
      id,
      OR: allowedFrom.map((value) => ({ moderation: value })),
    },
    data: moderation === 'offline' ? { moderation, offlineAt: now } : { moderation },
  });
  return count === 1;
}

/**
 * Brings an offline challenge back online (docs/adr/0071). The row is locked first, so of two
 * staff acting at once one does it and the other finds it online. Answers since when it was
 * offline (null when taken offline before that was recorded), or null when it was not offline
 * (online already, or removed: a removal is final).
 */
export async function clearOffline(
  tx: Transaction,
  id: string,
): Promise<{ offlineAt: Date | null } | null> {
  const [row] = await tx.$queryRaw<{ offlineAt: Date | null }[]>`
    SELECT offline_at AS "offlineAt" FROM known_challenges
     WHERE id = ${id}::uuid AND moderation = 'offline'
       FOR UPDATE`;
  if (!row) return null;
  await tx.knownChallenge.update({ where: { id }, data: { moderation: null, offlineAt: null } });
  return row;
}

export interface KnownUserRecord {
  id: string;
  username: string;
  banType: string | null;
  deleted: boolean;
}

/** Only the event that names the user (projectRegistrationOnce) creates the row. */
export async function updateKnownUser(
  tx: Transaction,
  row: { id: string; banType?: string | null; deleted?: boolean },
) {
  const { id, ...rest } = row;
  await tx.knownUser.updateMany({ where: { id }, data: rest });
}

/**
 * UserRegistered in one statement (docs/adr/0104) instead of a transaction of two: the consumer's
 * processed-event mark and, only when it is new, the account (as upsertKnownUser with a username).
 * False when the event was handled before.
 */
export async function projectRegistrationOnce(
  db: Database,
  mark: ProcessedMark,
  user: { id: string; username: string },
): Promise<boolean> {
  return handleOnceInStatement(
    db,
    Prisma.sql,
    mark,
    Prisma.sql`known AS (
      INSERT INTO known_users (id, username, updated_at)
      SELECT ${user.id}::uuid, ${user.username}, ${new Date()}::timestamp(3) FROM processed
      ON CONFLICT (id) DO UPDATE SET username = excluded.username, updated_at = excluded.updated_at
    )`,
  );
}

export function findKnownUser(
  db: Database | Transaction,
  id: string,
): Promise<KnownUserRecord | null> {
  return db.knownUser.findUnique({
    where: { id },
    select: { id: true, username: true, banType: true, deleted: true },
  });
}

export async function recordFollow(
  tx: Transaction,
  follow: { followerId: string; followeeId: string },
  following: boolean,
): Promise<void> {
  // Raw SQL: Prisma compiles every createMany anew (its plan cache skips them; docs/adr/0104).
  if (following) {
    await tx.$executeRaw`
      INSERT INTO known_follows (follower_id, followee_id)
      VALUES (${follow.followerId}::uuid, ${follow.followeeId}::uuid)
      ON CONFLICT DO NOTHING`;
  } else await tx.knownFollow.deleteMany({ where: follow });
}

/** True when the user follows any of these users. */
export async function followsAnyOf(
  db: Database | Transaction,
  followerId: string,
  followeeIds: string[],
): Promise<boolean> {
  if (followeeIds.length === 0) return false;
  return (
    (await db.knownFollow.count({ where: { followerId, followeeId: { in: followeeIds } } })) > 0
  );
}
