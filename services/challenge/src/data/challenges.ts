import { LIST_DEPTH_MAX } from '@challenge/kit';
import type {
  ChallengeModeration,
  ChallengeStatus,
  ChallengeType,
  ChallengeVisibility,
} from './generated/enums.ts';
import type { Prisma } from './generated/client.ts';
import type { Database, Transaction } from './db.ts';

export type { ChallengeModeration, ChallengeStatus, ChallengeType, ChallengeVisibility };

export interface ChallengeRecord {
  id: string;
  slug: string;
  ownerId: string;
  challengedUserId: string | null;
  challengedEmail: string | null;
  name: string;
  description: string;
  rewardCents: bigint;
  status: ChallengeStatus;
  visibility: ChallengeVisibility;
  expirationDate: Date;
  expirationTimeWeeks: number;
  challengeType: ChallengeType;
  tags: string[];
  proofPhrase: string | null;
  reason: string | null;
  judgedByReferee: boolean;
  challengeFailedComment: string | null;
  acceptedAt: Date | null;
  reviewStartedAt: Date | null;
  /** offline or removed by staff (moderation); null otherwise. */
  moderation: ChallengeModeration | null;
  /** When staff took it offline: its timers stand still until it is back (docs/adr/0071). */
  offlineSince: Date | null;
  /** A solo proof registered before the expiration date, waiting for its processing. */
  pendingVideoId: string | null;
  pendingVideoAt: Date | null;
  createdAt: Date;
}

const challengeFields = {
  id: true,
  slug: true,
  ownerId: true,
  challengedUserId: true,
  challengedEmail: true,
  name: true,
  description: true,
  rewardCents: true,
  status: true,
  visibility: true,
  expirationDate: true,
  expirationTimeWeeks: true,
  challengeType: true,
  tags: true,
  proofPhrase: true,
  reason: true,
  judgedByReferee: true,
  challengeFailedComment: true,
  acceptedAt: true,
  reviewStartedAt: true,
  moderation: true,
  offlineSince: true,
  pendingVideoId: true,
  pendingVideoAt: true,
  createdAt: true,
} as const;

export function findChallengeBySlug(
  db: Database | Transaction,
  slug: string,
): Promise<ChallengeRecord | null> {
  return db.challenge.findUnique({ where: { slug }, select: challengeFields });
}

export function findChallengeById(
  db: Database | Transaction,
  id: string,
): Promise<ChallengeRecord | null> {
  return db.challenge.findUnique({ where: { id }, select: challengeFields });
}

export interface NewChallengeRow {
  slug: string;
  ownerId: string;
  challengedUserId?: string | null;
  challengedEmail?: string | null;
  name: string;
  description: string;
  rewardCents: bigint;
  status?: ChallengeStatus;
  visibility?: ChallengeVisibility;
  expirationDate: Date;
  expirationTimeWeeks: number;
  challengeType?: ChallengeType;
  tags?: string[];
  proofPhrase?: string | null;
  reason?: string | null;
  acceptedAt?: Date | null;
  reviewStartedAt?: Date | null;
}

export function insertChallenge(
  db: Database | Transaction,
  row: NewChallengeRow,
): Promise<ChallengeRecord> {
  return db.challenge.create({ data: row, select: challengeFields });
}

/** Removes challenges that never went live (a creation undone); a live one is never touched. */
export async function deleteDrafts(db: Database | Transaction, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  await db.challenge.deleteMany({ where: { id: { in: ids }, status: 'draft' } });
}

/** The fields a status change may set besides the status. */
export type TransitionFields = Partial<
  Pick<
    ChallengeRecord,
    | 'proofPhrase'
    | 'reason'
    | 'judgedByReferee'
    | 'challengeFailedComment'
    | 'acceptedAt'
    | 'reviewStartedAt'
    | 'challengedUserId'
    | 'pendingVideoId'
    | 'pendingVideoAt'
  >
>;

/**
 * A status change as a conditional update: it happens only while the challenge is still in one
 * of `from`, so of two concurrent changes exactly one wins. Null when none was made.
 */
export async function changeStatus(
  tx: Transaction,
  id: string,
  from: readonly ChallengeStatus[],
  to: ChallengeStatus,
  fields: TransitionFields = {},
): Promise<ChallengeRecord | null> {
  const [updated] = await tx.challenge.updateManyAndReturn({
    where: { id, status: { in: [...from] } },
    data: { ...fields, status: to },
    select: challengeFields,
  });
  return updated ?? null;
}

/** The owner's edits, made only while the challenge is still in one of `inStatuses`. */
/**
 * Writes the edited fields when the challenge is in one of `inStatuses` (null otherwise). A
 * visibility that differs from the stored one counts one more `visibilityVersion`, returned so
 * that the caller can publish it; the row is locked first, so concurrent edits take their
 * versions in the order they commit (docs/adr/0056).
 */
export async function updateChallengeFields(
  tx: Transaction,
  id: string,
  inStatuses: readonly ChallengeStatus[],
  fields: Partial<
    Pick<ChallengeRecord, 'description' | 'visibility' | 'expirationDate' | 'expirationTimeWeeks'>
  >,
): Promise<{ challenge: ChallengeRecord; visibilityVersion: number | null } | null> {
  let visibilityChanges = false;
  if (fields.visibility !== undefined) {
    const [current] = await tx.$queryRaw<{ visibility: ChallengeVisibility }[]>`
      SELECT visibility FROM challenges WHERE id = ${id}::uuid FOR UPDATE`;
    visibilityChanges = current !== undefined && current.visibility !== fields.visibility;
  }
  const [updated] = await tx.challenge.updateManyAndReturn({
    where: { id, status: { in: [...inStatuses] } },
    data: visibilityChanges ? { ...fields, visibilityVersion: { increment: 1 } } : fields,
    select: { ...challengeFields, visibilityVersion: true },
  });
  if (!updated) return null;
  const { visibilityVersion, ...challenge } = updated;
  return { challenge, visibilityVersion: visibilityChanges ? visibilityVersion : null };
}

/** Who reads a list: a visitor (null), a user, or staff, who see private challenges too. */
export interface Reader {
  id: string | null;
  staff: boolean;
}

/** Drafts are a moment inside createChallenge: never listed. Private ones only to their parties. */
function visibleTo(reader: Reader): Prisma.ChallengeWhereInput {
  if (reader.staff) return { status: { not: 'draft' } };
  const parties: Prisma.ChallengeWhereInput[] = reader.id
    ? [{ ownerId: reader.id }, { challengedUserId: reader.id }]
    : [];
  // Taken offline or removed by staff: nobody but staff sees it, its parties included.
  return {
    status: { not: 'draft' },
    moderation: null,
    OR: [{ visibility: 'public' }, ...parties],
  };
}

export interface ChallengeFilter {
  statuses?: readonly ChallengeStatus[];
  challengeType?: ChallengeType;
  /** Only challenges this user owns or is challenged by. */
  partyId?: string;
  ownerId?: string;
  challengedUserId?: string;
  /**
   * The dashboard's running list: open ones this user sent, and accepted, review or referee ones
   * they are a party of (an open one sent to them is a request, not running).
   */
  runningFor?: string;
}

function whereOf(reader: Reader, filter: ChallengeFilter): Prisma.ChallengeWhereInput {
  const and: Prisma.ChallengeWhereInput[] = [visibleTo(reader)];
  if (filter.statuses) and.push({ status: { in: [...filter.statuses] } });
  if (filter.challengeType) and.push({ challengeType: filter.challengeType });
  if (filter.partyId) {
    and.push({ OR: [{ ownerId: filter.partyId }, { challengedUserId: filter.partyId }] });
  }
  if (filter.ownerId) and.push({ ownerId: filter.ownerId });
  if (filter.challengedUserId) and.push({ challengedUserId: filter.challengedUserId });
  if (filter.runningFor) {
    const id = filter.runningFor;
    and.push({
      OR: [
        { ownerId: id, status: 'open' },
        {
          OR: [{ ownerId: id }, { challengedUserId: id }],
          status: { in: ['accepted', 'review', 'referee'] },
        },
      ],
    });
  }
  return { AND: and };
}

/** A page of challenges, newest first, and how many match, counted up to LIST_DEPTH_MAX. */
export async function listChallenges(
  db: Database,
  reader: Reader,
  filter: ChallengeFilter,
  window: { skip: number; take: number },
): Promise<{ items: ChallengeRecord[]; total: number }> {
  const where = whereOf(reader, filter);
  const [items, total] = await db.$transaction([
    db.challenge.findMany({
      where,
      select: challengeFields,
      orderBy: [{ createdAt: 'desc' }, { id: 'asc' }],
      ...window,
    }),
    db.challenge.count({ where, take: LIST_DEPTH_MAX }),
  ]);
  return { items, total };
}

/**
 * Records what moderation did: offline only from nothing (and since when: `now`), removed from
 * nothing or offline. Returns the challenge as it is now, or null when it is unknown.
 */
export async function setModeration(
  tx: Transaction,
  id: string,
  moderation: ChallengeModeration,
  now: Date,
): Promise<ChallengeRecord | null> {
  const from: (ChallengeModeration | null)[] =
    moderation === 'offline' ? [null] : [null, 'offline'];
  await tx.challenge.updateMany({
    where: { id, OR: from.map((value) => ({ moderation: value })) },
    data: moderation === 'offline' ? { moderation, offlineSince: now } : { moderation },
  });
  return findChallengeById(tx, id);
}

/**
 * Back online (docs/adr/0071): the moderation mark is cleared and the deadlines take the ones
 * the caller moved by the offline time. Only while still offline (a removal stays); the caller
 * holds the row's lock. Null when nothing changed.
 */
export async function bringBackOnline(
  tx: Transaction,
  id: string,
  deadlines: Pick<ChallengeRecord, 'expirationDate' | 'reviewStartedAt'>,
): Promise<ChallengeRecord | null> {
  const [updated] = await tx.challenge.updateManyAndReturn({
    where: { id, moderation: 'offline' },
    data: { ...deadlines, moderation: null, offlineSince: null },
    select: challengeFields,
  });
  return updated ?? null;
}

/**
 * The registered proof of a solo challenge (docs/adr/0071): set while it is accepted, cleared
 * when media reports that processing failed (only if it is still that video). The caller holds
 * the row's lock.
 */
export async function setPendingVideo(
  tx: Transaction,
  id: string,
  pending: { videoId: string; at: Date } | null,
  onlyIfVideoId?: string,
): Promise<boolean> {
  const { count } = await tx.challenge.updateMany({
    where: { id, ...(onlyIfVideoId ? { pendingVideoId: onlyIfVideoId } : {}) },
    data: { pendingVideoId: pending?.videoId ?? null, pendingVideoAt: pending?.at ?? null },
  });
  return count === 1;
}
