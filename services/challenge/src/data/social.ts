import { LIST_DEPTH_MAX } from '@challenge/kit';
import { Prisma } from './generated/client.ts';
import type { ChallengeStatus, ChallengeType } from './generated/enums.ts';
import type { Database, Transaction } from './db.ts';
import type { ChallengeRecord } from './challenges.ts';

/*
 * Respects (likes), comments, the follows projection, and the discover and profile lists
 * (docs/adr/0043, 0044). Prisma stays in this folder.
 */

// ---- Respects ------------------------------------------------------------------------------

/**
 * Toggles one user's respect of one challenge. The toggles of one user on one challenge take turns
 * (a transaction-scoped advisory lock on the pair), so however many arrive at once they alternate
 * and the last one's answer is what is stored. `first` is true for the very first respect only.
 */
export async function toggleLike(
  tx: Transaction,
  challengeId: string,
  userId: string,
  now = new Date(),
): Promise<{ liked: boolean; first: boolean }> {
  await tx.$queryRaw`SELECT 1 AS locked FROM (SELECT pg_advisory_xact_lock(hashtextextended(${`like:${challengeId}:${userId}`}, 0))) AS l`;
  const existing = await tx.challengeLike.findUnique({
    where: { challengeId_userId: { challengeId, userId } },
    select: { unlikedAt: true },
  });
  if (!existing) {
    await tx.challengeLike.create({ data: { challengeId, userId, likedAt: now } });
    return { liked: true, first: true };
  }
  const liked = existing.unlikedAt !== null;
  await tx.challengeLike.update({
    where: { challengeId_userId: { challengeId, userId } },
    data: liked ? { unlikedAt: null, likedAt: now } : { unlikedAt: now },
  });
  return { liked, first: false };
}

/**
 * The respect counts of challenges and which of them `viewerId` respects, in one statement (a
 * list's cards ask for both: one round trip and one query through the client, not two).
 */
export async function respectsOf(
  db: Database,
  challengeIds: string[],
  viewerId: string | null,
): Promise<Map<string, { count: number; mine: boolean }>> {
  if (challengeIds.length === 0) return new Map();
  const rows = await db.$queryRaw<{ id: string; n: bigint; mine: boolean }[]>`
    SELECT l.challenge_id::text AS id, count(*) AS n,
           COALESCE(bool_or(l.user_id = ${viewerId}::uuid), false) AS mine
      FROM challenge_likes l
     WHERE l.challenge_id = ANY(${challengeIds}::uuid[]) AND l.unliked_at IS NULL
     GROUP BY l.challenge_id`;
  return new Map(rows.map((row) => [row.id, { count: Number(row.n), mine: row.mine }]));
}

export async function likeCounts(
  db: Database,
  challengeIds: string[],
): Promise<Map<string, number>> {
  if (challengeIds.length === 0) return new Map();
  const rows = await db.challengeLike.groupBy({
    by: ['challengeId'],
    where: { challengeId: { in: challengeIds }, unlikedAt: null },
    _count: { _all: true },
  });
  return new Map(rows.map((row) => [row.challengeId, row._count._all]));
}

/** Who respects a challenge, most recent first (at most `take`). */
export async function likesOf(
  db: Database,
  challengeId: string,
  take: number,
): Promise<{ userId: string; likedAt: Date }[]> {
  return db.challengeLike.findMany({
    where: { challengeId, unlikedAt: null },
    orderBy: [{ likedAt: 'desc' }, { userId: 'asc' }],
    take,
    select: { userId: true, likedAt: true },
  });
}

// ---- Comments ------------------------------------------------------------------------------

export interface CommentRecord {
  id: string;
  challengeId: string;
  authorId: string;
  text: string;
  createdAt: Date;
}

const commentFields = {
  id: true,
  challengeId: true,
  authorId: true,
  text: true,
  createdAt: true,
} as const;

export function insertComment(
  tx: Transaction,
  row: { challengeId: string; authorId: string; text: string },
): Promise<CommentRecord> {
  return tx.challengeComment.create({ data: row, select: commentFields });
}

export function findComment(db: Database, id: string): Promise<CommentRecord | null> {
  return db.challengeComment.findUnique({ where: { id }, select: commentFields });
}

export async function deleteComment(db: Database, id: string): Promise<boolean> {
  const { count } = await db.challengeComment.deleteMany({ where: { id } });
  return count === 1;
}

/** A page of a challenge's comments, newest first, and how many it has (up to LIST_DEPTH_MAX). */
export async function commentPage(
  db: Database,
  challengeId: string,
  window: { skip: number; take: number },
): Promise<{ items: CommentRecord[]; total: number }> {
  const [items, total] = await Promise.all([
    db.challengeComment.findMany({
      where: { challengeId },
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      select: commentFields,
      ...window,
    }),
    db.challengeComment.count({ where: { challengeId }, take: LIST_DEPTH_MAX }),
  ]);
  return { items, total };
}

// ---- Follows projection --------------------------------------------------------------------

export async function recordFollow(
  tx: Transaction,
  followerId: string,
  followeeId: string,
  at: Date,
): Promise<void> {
  // Raw SQL: Prisma compiles every createMany anew (its plan cache skips them; docs/adr/0104).
  await tx.$executeRaw`
    INSERT INTO known_follows (follower_id, followee_id, created_at)
    VALUES (${followerId}::uuid, ${followeeId}::uuid, ${at}::timestamp(3))
    ON CONFLICT DO NOTHING`;
}

export async function removeFollow(
  tx: Transaction,
  followerId: string,
  followeeId: string,
): Promise<void> {
  await tx.knownFollow.deleteMany({ where: { followerId, followeeId } });
}

// ---- Discover lists ------------------------------------------------------------------------

/** Statuses a discover list shows: what is going on or happened; never drafts or dead ends. */
export const DISCOVER_STATUSES: readonly ChallengeStatus[] = [
  'open',
  'accepted',
  'review',
  'referee',
  'completed',
  'failed',
];

export interface DiscoverQuery {
  /** The logged-in viewer, who also sees private challenges they are a party of. */
  viewerId: string | null;
  challengeType?: ChallengeType;
  /** Only challenges owned by someone the viewer follows. */
  followedBy?: string;
  skip: number;
  take: number;
  /** Totals are counted up to this bound (docs/adr/0043). */
  countLimit: number;
}

const columns = Prisma.raw(
  `c.id, c.slug, c.owner_id AS "ownerId", c.challenged_user_id AS "challengedUserId",
   c.challenged_email AS "challengedEmail", c.name, c.description, c.reward_cents AS "rewardCents",
   c.status::text AS status, c.visibility::text AS visibility, c.expiration_date AS "expirationDate",
   c.expiration_time_weeks AS "expirationTimeWeeks", c.challenge_type::text AS "challengeType",
   c.tags, c.proof_phrase AS "proofPhrase", c.reason, c.judged_by_referee AS "judgedByReferee",
   c.challenge_failed_comment AS "challengeFailedComment", c.accepted_at AS "acceptedAt",
   c.review_started_at AS "reviewStartedAt", c.created_at AS "createdAt",
   c.moderation::text AS "moderation"`,
);

/**
 * The discover statuses as the enum (a text cast would hide the column from the planner), and
 * nothing staff took offline or removed. The discover lists and respected videos filter with it,
 * the other profile lists in profileParts (which repeats the moderation condition).
 */
const liveStatuses = Prisma.sql`c.status = ANY(ARRAY[${Prisma.join([...DISCOVER_STATUSES])}]::"ChallengeStatus"[])
  AND c.moderation IS NULL`;

/**
 * One page of a discover list, newest first.
 *
 * - all, solo, duel: public challenges come in order from the (visibility, [type,] created_at)
 *   index, so a page reads about skip + take rows;
 * - following: for each followed owner, their newest skip + take from the (owner_id, created_at)
 *   index, merged; a page reads at most (followed people) x (skip + take) rows.
 * The viewer's own private challenges (few) are merged into each.
 */
export async function discoverPage(db: Database, query: DiscoverQuery): Promise<ChallengeRecord[]> {
  return db.$queryRaw<ChallengeRecord[]>(discoverPageSql(query));
}

/**
 * The plan of `discoverPage`, as the planner would choose it on a large table (sequential scans
 * off: on a test's few rows a scan is cheapest). A test checks it uses the partial indexes of the
 * discover lists, whose predicate the statement must keep implying (docs/adr/0061).
 */
export async function discoverPagePlan(db: Database, query: DiscoverQuery): Promise<string> {
  return db.$transaction(async (tx) => {
    await tx.$executeRaw`SET LOCAL enable_seqscan = off`;
    const rows = await tx.$queryRaw<{ 'QUERY PLAN': string }[]>`EXPLAIN ${discoverPageSql(query)}`;
    return rows.map((row) => row['QUERY PLAN']).join('\n');
  });
}

function discoverPageSql(query: DiscoverQuery): Prisma.Sql {
  const type = typeFilter(query.challengeType);
  const reach = query.skip + query.take;
  const publicPart = query.followedBy
    ? Prisma.sql`
        SELECT x.id, x.created_at FROM known_follows f CROSS JOIN LATERAL (
          SELECT c.id, c.created_at FROM challenges c
           WHERE c.owner_id = f.followee_id AND c.visibility = 'public' AND ${liveStatuses} ${type}
           ORDER BY c.created_at DESC, c.id LIMIT ${reach}) AS x
         WHERE f.follower_id = ${query.followedBy}::uuid`
    : Prisma.sql`
        SELECT c.id, c.created_at FROM challenges c
         WHERE c.visibility = 'public' AND ${liveStatuses} ${type}
         ORDER BY c.created_at DESC, c.id LIMIT ${reach}`;
  // The viewer's private ones per side, each from its own index (an OR of the two sides made the
  // planner walk every private challenge in date order: docs/adr/0061).
  const privateOf = (side: Prisma.Sql) => {
    const where = privateWhereOf(query, side);
    return where
      ? Prisma.sql` UNION ALL (SELECT c.id, c.created_at FROM challenges c WHERE ${where}
          ORDER BY c.created_at DESC, c.id LIMIT ${reach})`
      : Prisma.empty;
  };
  const candidates = query.viewerId
    ? Prisma.sql`(${publicPart})
        ${privateOf(Prisma.sql`c.owner_id = ${query.viewerId}::uuid`)}
        ${privateOf(Prisma.sql`c.challenged_user_id = ${query.viewerId}::uuid AND c.owner_id <> ${query.viewerId}::uuid`)}`
    : publicPart;
  // The page's ids first, its rows after: a deep page never joins the rows it skips.
  return Prisma.sql`
    SELECT ${columns} FROM (
      SELECT p.id FROM (${candidates}) AS p
       ORDER BY p.created_at DESC, p.id OFFSET ${query.skip} LIMIT ${query.take}) AS page
      JOIN challenges c ON c.id = page.id
     ORDER BY c.created_at DESC, c.id`;
}

const typeFilter = (challengeType: ChallengeType | undefined) =>
  challengeType
    ? Prisma.sql`AND c.challenge_type = ${challengeType}::"ChallengeType"`
    : Prisma.empty;

/** The viewer's own private challenges in a list; null for a visitor. */
function privateWhereOf(
  query: DiscoverQuery,
  side: Prisma.Sql = Prisma.sql`(c.owner_id = ${query.viewerId}::uuid OR c.challenged_user_id = ${query.viewerId}::uuid)`,
): Prisma.Sql | null {
  if (!query.viewerId) return null;
  const followedOwner = query.followedBy
    ? Prisma.sql`AND c.owner_id IN (SELECT followee_id FROM known_follows WHERE follower_id = ${query.followedBy}::uuid)`
    : Prisma.empty;
  return Prisma.sql`c.visibility = 'private' AND ${liveStatuses} ${typeFilter(query.challengeType)}
    ${followedOwner}
    AND ${side}`;
}

/** How many public challenges a list of everyone's has, counted up to `limit`. */
export async function publicDiscoverCount(
  db: Database,
  challengeType: ChallengeType | undefined,
  limit: number,
): Promise<number> {
  const [row] = await db.$queryRaw<{ n: bigint }[]>`
    SELECT count(*) AS n FROM (
      SELECT 1 FROM challenges c
       WHERE c.visibility = 'public' AND ${liveStatuses} ${typeFilter(challengeType)}
       LIMIT ${limit}) AS rows`;
  return Number(row?.n ?? 0);
}

/**
 * The viewer's part of a list's total: their own private challenges in it and, for the
 * following list, the public challenges of the people they follow (one index lookup per person).
 */
export async function viewerDiscoverCount(db: Database, query: DiscoverQuery): Promise<number> {
  const privateWhere = privateWhereOf(query);
  const privateCount = privateWhere
    ? Prisma.sql`(SELECT count(*) FROM (SELECT 1 FROM challenges c WHERE ${privateWhere} LIMIT ${query.countLimit}) AS n)`
    : Prisma.sql`0`;
  const followedCount = query.followedBy
    ? Prisma.sql`(SELECT COALESCE(sum(x.n), 0) FROM known_follows f CROSS JOIN LATERAL (
        SELECT count(*) AS n FROM challenges c
         WHERE c.owner_id = f.followee_id AND c.visibility = 'public' AND ${liveStatuses}
           ${typeFilter(query.challengeType)}) AS x
         WHERE f.follower_id = ${query.followedBy}::uuid)`
    : Prisma.sql`0`;
  const [row] = await db.$queryRaw<{ n: bigint | string }[]>`
    SELECT (${privateCount} + ${followedCount})::bigint AS n`;
  return Number(row?.n ?? 0);
}

// ---- Challenges by status ------------------------------------------------------------------

export interface StatusQuery {
  status: ChallengeStatus;
  challengeType?: ChallengeType;
  /** The logged-in viewer, who also sees the private challenges they are a party of. */
  viewerId: string | null;
  skip: number;
  take: number;
}

/**
 * getChallengesByStatus for everyone but staff, built like a discover list (docs/adr/0074): the
 * public part in order from the partial index challenges_public_status_idx (status, created_at,
 * id; the type filtered from its INCLUDE column), the viewer's own private ones per side from
 * their own indexes, merged. A page reads about skip + take index entries; an OR of the
 * visibility and the parties made the planner sort every challenge of the status.
 */
function statusCandidates(query: StatusQuery, reach: number): Prisma.Sql {
  const where = Prisma.sql`c.status = ${query.status}::"ChallengeStatus" AND c.moderation IS NULL
    ${typeFilter(query.challengeType)}`;
  const part = (visibility: Prisma.Sql) => Prisma.sql`(SELECT c.id, c.created_at FROM challenges c
    WHERE ${where} AND ${visibility} ORDER BY c.created_at DESC, c.id LIMIT ${reach})`;
  const publicPart = part(Prisma.sql`c.visibility = 'public'`);
  if (!query.viewerId) return publicPart;
  const me = query.viewerId;
  return Prisma.sql`${publicPart}
    UNION ALL ${part(Prisma.sql`c.visibility = 'private' AND c.owner_id = ${me}::uuid`)}
    UNION ALL ${part(Prisma.sql`c.visibility = 'private' AND c.challenged_user_id = ${me}::uuid
      AND c.owner_id <> ${me}::uuid`)}`;
}

function statusPageSql(query: StatusQuery): Prisma.Sql {
  return Prisma.sql`
    SELECT ${columns} FROM (
      SELECT p.id FROM (${statusCandidates(query, query.skip + query.take)}) AS p
       ORDER BY p.created_at DESC, p.id OFFSET ${query.skip} LIMIT ${query.take}) AS page
      JOIN challenges c ON c.id = page.id
     ORDER BY c.created_at DESC, c.id`;
}

/** One page of a status's challenges and how many there are (up to LIST_DEPTH_MAX). */
export async function statusPage(
  db: Database,
  query: StatusQuery,
): Promise<{ items: ChallengeRecord[]; total: number }> {
  const [items, [count]] = await Promise.all([
    db.$queryRaw<ChallengeRecord[]>(statusPageSql(query)),
    db.$queryRaw<{ n: bigint }[]>`
      SELECT count(*) AS n FROM (
        SELECT 1 FROM (${statusCandidates(query, LIST_DEPTH_MAX)}) AS p LIMIT ${LIST_DEPTH_MAX}) AS rows`,
  ]);
  return { items, total: Number(count?.n ?? 0) };
}

/** The plan of `statusPage`'s page on a large table (sequential scans off), for a test. */
export async function statusPagePlan(db: Database, query: StatusQuery): Promise<string> {
  return db.$transaction(async (tx) => {
    await tx.$executeRaw`SET LOCAL enable_seqscan = off`;
    const rows = await tx.$queryRaw<{ 'QUERY PLAN': string }[]>`EXPLAIN ${statusPageSql(query)}`;
    return rows.map((row) => row['QUERY PLAN']).join('\n');
  });
}

// ---- Profile lists -------------------------------------------------------------------------

export type ProfileList = 'uploadedVideos' | 'runningChallenges' | 'completedChallenges';

/** Which of a user's challenges each profile list holds (docs/adr/0045). */
export const PROFILE_LISTS: Record<
  ProfileList,
  { role: 'challenged' | 'party'; statuses: readonly ChallengeStatus[] }
> = {
  /** Challenges in which this user uploaded the proof video. */
  uploadedVideos: { role: 'challenged', statuses: ['review', 'referee', 'completed', 'failed'] },
  runningChallenges: { role: 'party', statuses: ['open', 'accepted', 'review', 'referee'] },
  completedChallenges: { role: 'party', statuses: ['completed'] },
};

/**
 * A user's challenges in one list: one index each for the owner and the challenged side (an OR
 * of the two would make the planner walk the newest challenges of everyone).
 */
function profileParts(
  userId: string,
  list: ProfileList,
  withPrivate: boolean,
  order: Prisma.Sql,
): Prisma.Sql {
  const { role, statuses } = PROFILE_LISTS[list];
  const where = Prisma.sql`c.status = ANY(ARRAY[${Prisma.join([...statuses])}]::"ChallengeStatus"[])
    AND c.moderation IS NULL
    ${withPrivate ? Prisma.empty : Prisma.sql`AND c.visibility = 'public'`}`;
  const challenged = Prisma.sql`(SELECT c.id, c.created_at FROM challenges c
    WHERE c.challenged_user_id = ${userId}::uuid AND ${where} ${order})`;
  return role === 'challenged'
    ? challenged
    : Prisma.sql`(SELECT c.id, c.created_at FROM challenges c
        WHERE c.owner_id = ${userId}::uuid AND ${where} ${order}) UNION ${challenged}`;
}

export async function profileChallenges(
  db: Database,
  userId: string,
  list: ProfileList,
  withPrivate: boolean,
  window: { skip: number; take: number },
): Promise<ChallengeRecord[]> {
  const order = Prisma.sql`ORDER BY c.created_at DESC, c.id LIMIT ${window.skip + window.take}`;
  return db.$queryRaw<ChallengeRecord[]>`
    SELECT ${columns} FROM (
      SELECT p.id FROM (${profileParts(userId, list, withPrivate, order)}) AS p
       ORDER BY p.created_at DESC, p.id OFFSET ${window.skip} LIMIT ${window.take}) AS page
      JOIN challenges c ON c.id = page.id
     ORDER BY c.created_at DESC, c.id`;
}

/**
 * The challenges a user respects: public ones; with `withPrivate` also the private ones the user
 * is a party of, like every other profile list. A private challenge of others that the user
 * respected (as staff, or before its owner made it private) is never theirs to list.
 */
function respectedWhere(userId: string, withPrivate: boolean): Prisma.Sql {
  const visible = withPrivate
    ? Prisma.sql`(c.visibility = 'public' OR c.owner_id = ${userId}::uuid
        OR c.challenged_user_id = ${userId}::uuid)`
    : Prisma.sql`c.visibility = 'public'`;
  return Prisma.sql`l.user_id = ${userId}::uuid AND l.unliked_at IS NULL
    AND ${liveStatuses} AND ${visible}`;
}

export async function respectedChallenges(
  db: Database,
  userId: string,
  withPrivate: boolean,
  window: { skip: number; take: number },
): Promise<ChallengeRecord[]> {
  return db.$queryRaw<ChallengeRecord[]>`
    SELECT ${columns} FROM challenge_likes l JOIN challenges c ON c.id = l.challenge_id
     WHERE ${respectedWhere(userId, withPrivate)}
     ORDER BY l.liked_at DESC, c.id OFFSET ${window.skip} LIMIT ${window.take}`;
}

export type ProfileCounts = Record<ProfileList | 'respectedVideos', number>;

/**
 * The four counts of a profile in one round trip. A list's two sides are counted apart and added
 * (a challenge both owned and taken by the user, which the rules never make, still counts once):
 * each count reads only the (side, status) index, where a union of the rows had to visit the
 * table for every one of a busy user's challenges (docs/adr/0061). Each counts up to
 * LIST_DEPTH_MAX, as deep as its list goes (docs/adr/0074).
 */
export async function profileCounts(
  db: Database,
  userId: string,
  withPrivate: boolean,
): Promise<ProfileCounts> {
  const countOf = (list: ProfileList) => {
    const { role, statuses } = PROFILE_LISTS[list];
    const where = Prisma.sql`c.status = ANY(ARRAY[${Prisma.join([...statuses])}]::"ChallengeStatus"[])
      AND c.moderation IS NULL
      ${withPrivate ? Prisma.empty : Prisma.sql`AND c.visibility = 'public'`}`;
    const challenged = (notOwned: boolean) =>
      capped(Prisma.sql`SELECT 1 FROM challenges c
        WHERE c.challenged_user_id = ${userId}::uuid
          ${notOwned ? Prisma.sql`AND c.owner_id <> ${userId}::uuid` : Prisma.empty} AND ${where}`);
    return role === 'challenged'
      ? challenged(false)
      : Prisma.sql`(${capped(Prisma.sql`SELECT 1 FROM challenges c WHERE c.owner_id = ${userId}::uuid AND ${where}`)}
          + ${challenged(true)})`;
  };
  const [row] = await db.$queryRaw<Record<string, bigint>[]>`
    SELECT ${countOf('uploadedVideos')} AS "uploadedVideos",
           ${countOf('runningChallenges')} AS "runningChallenges",
           ${countOf('completedChallenges')} AS "completedChallenges",
           ${capped(Prisma.sql`SELECT 1 FROM challenge_likes l JOIN challenges c ON c.id = l.challenge_id
             WHERE ${respectedWhere(userId, withPrivate)}`)} AS "respectedVideos"`;
  const count = (value: bigint | undefined) => Math.min(Number(value ?? 0), LIST_DEPTH_MAX);
  return {
    uploadedVideos: count(row?.uploadedVideos),
    runningChallenges: count(row?.runningChallenges),
    completedChallenges: count(row?.completedChallenges),
    respectedVideos: count(row?.respectedVideos),
  };
}

/** `(SELECT count(*) ...)` of the rows a statement selects, stopping at LIST_DEPTH_MAX. */
const capped = (rows: Prisma.Sql) =>
  Prisma.sql`(SELECT count(*) FROM (${rows} LIMIT ${LIST_DEPTH_MAX}) AS counted)`;
