import { enqueueEvents, newEvent } from '@challenge/events';
import {
  AppError,
  LIST_DEPTH_MAX,
  pageWindow,
  paginationOf,
  type AuthUser,
  type PageRequest,
  type Pagination,
  type Redis,
} from '@challenge/kit';
import { z } from 'zod';
import {
  findChallengeById,
  findChallengeBySlug,
  type ChallengeRecord,
} from '../data/challenges.ts';
import { transactionRunner, type Database } from '../data/db.ts';
import {
  commentPage,
  deleteComment,
  discoverPage,
  findComment,
  insertComment,
  likeCounts,
  likesOf,
  profileChallenges,
  profileCounts,
  publicDiscoverCount,
  respectedChallenges,
  respectsOf,
  toggleLike,
  viewerDiscoverCount,
  type CommentRecord,
  type ProfileCounts,
  type ProfileList,
} from '../data/social.ts';
import { findKnownUser } from '../data/users.ts';
import { canView, isStaff, readerOf, toChallengeView, type ChallengeView } from './challenges.ts';
import { challengeEventData } from './events.ts';
import { parseSlug } from './slugs.ts';

/*
 * Respects, comments, sharing, discover lists and profile lists (docs/adr/0043 to 0045).
 */

/** A challenge the viewer may see, by slug; challenge_not_found otherwise (nothing leaks). */
async function visibleChallenge(
  db: Database,
  viewer: AuthUser | null,
  slug: string,
): Promise<ChallengeRecord> {
  const challenge = await findChallengeBySlug(db, parseSlug(slug));
  if (!challenge || !canView(challenge, viewer?.id ?? null, isStaff(viewer))) {
    throw new AppError('challenge_not_found');
  }
  return challenge;
}

const isParty = (challenge: ChallengeRecord, userId: string) =>
  challenge.ownerId === userId || challenge.challengedUserId === userId;

// ---- Respects ------------------------------------------------------------------------------

/**
 * likeChallenge toggles the viewer's respect. Only challenges the viewer may see, never a draft,
 * and never by one of the challenge's parties (their own challenge). The first respect tells the
 * parties (ChallengeLiked, in the same transaction); taking it back and giving it again does not.
 */
export async function likeChallenge(
  db: Database,
  user: AuthUser,
  slug: string,
): Promise<{ liked: boolean; challengeLikesCount: number }> {
  const challenge = await visibleChallenge(db, user, slug);
  if (challenge.status === 'draft') throw new AppError('challenge_not_found');
  if (isParty(challenge, user.id)) {
    throw new AppError('invalid_action', 'You cannot respect your own challenge.');
  }
  const known = await findKnownUser(db, user.id);
  if (known?.banned) throw new AppError('banned_user');
  const { liked } = await transactionRunner(db)(async (tx) => {
    const result = await toggleLike(tx, challenge.id, user.id);
    if (result.first) {
      await enqueueEvents(tx, [
        newEvent('ChallengeLiked', {
          aggregateId: challenge.id,
          actorId: user.id,
          data: { ...challengeEventData(challenge), likedBy: user.id },
        }),
      ]);
    }
    return result;
  });
  const counts = await likeCounts(db, [challenge.id]);
  return { liked, challengeLikesCount: counts.get(challenge.id) ?? 0 };
}

/** The respects shown on a challenge: the newest first, at most this many. */
export const LIKES_SHOWN = 50;

export async function challengeLikes(db: Database, challengeId: string) {
  const likes = await likesOf(db, challengeId, LIKES_SHOWN);
  return likes.map((like) => ({ userId: like.userId, likedAt: like.likedAt.toISOString() }));
}

/**
 * Per request: the respect counts and the viewer's own respects of every challenge a response
 * holds, read together in one query for all of them (a list of 20 challenges makes 1 query, not
 * 40).
 */
export function createSocialLoaders(db: Database, viewer: AuthUser | null) {
  const respects = batch<string, { count: number; mine: boolean }>(
    (ids) => respectsOf(db, ids, viewer?.id ?? null),
    { count: 0, mine: false },
  );
  return {
    likeCount: async (id: string) => (await respects(id)).count,
    hasLiked: async (id: string) => (await respects(id)).mine,
    profileCounts: createProfileCounts(db, viewer),
  };
}
export type SocialLoaders = ReturnType<typeof createSocialLoaders>;

/** Collects the keys asked for in one turn of the event loop and loads them together. */
function batch<K, V>(load: (keys: K[]) => Promise<Map<K, V>>, fallback: V) {
  let pending: { keys: Set<K>; result: Promise<Map<K, V>> } | null = null;
  return (key: K): Promise<V> => {
    if (!pending) {
      const keys = new Set<K>();
      const result = new Promise<void>((resolve) => setImmediate(resolve)).then(() => {
        pending = null;
        return load([...keys]);
      });
      pending = { keys, result };
    }
    pending.keys.add(key);
    return pending.result.then((values) => values.get(key) ?? fallback);
  };
}

// ---- Comments ------------------------------------------------------------------------------

/** The spec's limit of a free text a user writes on a challenge (the same as a reason). */
export const COMMENT_MAX = 800;

/** A comment: required, at most 800 characters (Unicode code points), the generic messages. */
export function parseCommentText(value: string): string {
  const text = value.trim();
  if (!text) throw new AppError('invalid_input', 'This field is required');
  if ([...text].length > COMMENT_MAX) {
    throw new AppError('invalid_input', `Exceeds character limit of ${COMMENT_MAX}`);
  }
  return text;
}

export interface CommentView {
  id: string;
  text: string;
  authorId: string;
  createdAt: string;
  /** Whether the viewer may delete it: its author, or staff. */
  canDelete: boolean;
}

const commentView = (comment: CommentRecord, viewer: AuthUser | null): CommentView => ({
  id: comment.id,
  text: comment.text,
  authorId: comment.authorId,
  createdAt: comment.createdAt.toISOString(),
  canDelete: !!viewer && (viewer.id === comment.authorId || isStaff(viewer)),
});

/** Any logged-in, unbanned user who may see the challenge (drafts excepted) comments on it. */
export async function addComment(
  db: Database,
  user: AuthUser,
  input: { slug: string; text: string },
): Promise<CommentView> {
  const challenge = await visibleChallenge(db, user, input.slug);
  if (challenge.status === 'draft') throw new AppError('challenge_not_found');
  const text = parseCommentText(input.text);
  const known = await findKnownUser(db, user.id);
  if (known?.banned) throw new AppError('banned_user');
  const comment = await transactionRunner(db)(async (tx) => {
    const created = await insertComment(tx, { challengeId: challenge.id, authorId: user.id, text });
    await enqueueEvents(tx, [
      newEvent('ChallengeCommented', {
        aggregateId: challenge.id,
        actorId: user.id,
        data: { ...challengeEventData(challenge), commentId: created.id, commentedBy: user.id },
      }),
    ]);
    return created;
  });
  return commentView(comment, user);
}

/** A challenge's comments, newest first; whoever may see the challenge may read them. */
export async function listComments(
  db: Database,
  viewer: AuthUser | null,
  input: { slug: string; page: PageRequest },
): Promise<{ comments: CommentView[]; pagination: Pagination }> {
  const challenge = await visibleChallenge(db, viewer, input.slug);
  const { items, total } = await commentPage(db, challenge.id, pageWindow(input.page));
  return {
    comments: items.map((item) => commentView(item, viewer)),
    pagination: paginationOf(input.page, total),
  };
}

/**
 * Its author deletes a comment; staff delete any. A comment on a challenge the user may not see
 * is not_found, like one that does not exist.
 */
export async function removeComment(db: Database, user: AuthUser, id: string): Promise<void> {
  if (!z.uuid().safeParse(id).success) throw new AppError('not_found');
  const comment = await findComment(db, id);
  if (!comment) throw new AppError('not_found');
  const staff = isStaff(user);
  if (!staff) {
    const challenge = await findChallengeById(db, comment.challengeId);
    if (!challenge || !canView(challenge, user.id, false)) throw new AppError('not_found');
    if (comment.authorId !== user.id) {
      throw new AppError('invalid_action', 'You can only delete your own comments.');
    }
  }
  if (!(await deleteComment(db, id))) throw new AppError('not_found');
}

// ---- Share ---------------------------------------------------------------------------------

export const challengeLink = (publicOrigin: string, slug: string) =>
  new URL(`/challenge/${encodeURIComponent(slug)}/detail`, publicOrigin).toString();

/** The text a WhatsApp share opens with, in the sender's language. */
export function whatsappText(locale: 'en' | 'nl', challengeName: string, link: string): string {
  return locale === 'nl'
    ? `Bekijk deze challenge: "${challengeName}" ${link}`
    : `Check out this challenge: "${challengeName}" ${link}`;
}

export const SHARE_EMAILS_MAX = 10;

const emailSchema = z.email();

/** Comma-, semicolon- or space-separated addresses: 1 to 10 valid, distinct ones. */
export function parseShareEmails(value: string | null | undefined): string[] {
  const parts = (value ?? '')
    .split(/[\s,;]+/)
    .map((part) => part.trim().toLowerCase())
    .filter(Boolean);
  const emails = [...new Set(parts)];
  if (emails.length === 0 || emails.some((email) => !emailSchema.safeParse(email).success)) {
    throw new AppError('invalid_challenged_email');
  }
  if (emails.length > SHARE_EMAILS_MAX) {
    throw new AppError('invalid_input', `At most ${SHARE_EMAILS_MAX} e-mail addresses at once`);
  }
  return emails;
}

export interface ShareDeps {
  db: Database;
  redis: Redis;
  publicOrigin: string;
  emailsPerHour: number;
  /** Prefix of the rate-limit keys (tests isolate themselves). */
  keyPrefix?: string;
}

/**
 * Takes `count` invitations from the user's hourly allowance (a fixed window in Redis), or
 * refuses them all with too_many_requests when they do not fit.
 */
async function takeShareAllowance(deps: ShareDeps, userId: string, count: number) {
  const window = Math.floor(Date.now() / 3_600_000);
  const key = `${deps.keyPrefix ?? ''}challenge:share:${userId}:${window}`;
  const used = await deps.redis.incrby(key, count);
  if (used === count) await deps.redis.expire(key, 3_700);
  if (used > deps.emailsPerHour) {
    await deps.redis.decrby(key, count);
    throw new AppError('too_many_requests', 'You invited too many people; try again later.');
  }
}

/**
 * shareChallengeLink: the public link and the WhatsApp text of a challenge the user may see, and,
 * with e-mail addresses, an invitation mailed to each (a command to notification, in one
 * transaction), within the sender's hourly allowance. Only the owner invites by e-mail (the spec:
 * "owner only: ... invite"); notification leaves out addresses that opted out (docs/adr/0074).
 */
export async function shareChallenge(
  deps: ShareDeps,
  user: AuthUser,
  input: { slug: string; emails?: string | null; locale?: string | null },
): Promise<{ link: string; whatsappText: string; invitedCount: number }> {
  const challenge = await visibleChallenge(deps.db, user, input.slug);
  if (challenge.status === 'draft') throw new AppError('challenge_not_found');
  const locale = input.locale === 'nl' ? 'nl' : 'en';
  const link = challengeLink(deps.publicOrigin, challenge.slug);
  const text = whatsappText(locale, challenge.name, link);
  if (!input.emails?.trim()) return { link, whatsappText: text, invitedCount: 0 };
  if (challenge.ownerId !== user.id) {
    throw new AppError('invalid_challenge_owner', 'Only its owner invites people by e-mail.');
  }
  const emails = parseShareEmails(input.emails);
  const known = await findKnownUser(deps.db, user.id);
  if (known?.banned) throw new AppError('banned_user');
  await takeShareAllowance(deps, user.id, emails.length);
  await transactionRunner(deps.db)((tx) =>
    enqueueEvents(
      tx,
      emails.map((email) =>
        newEvent('ChallengeShareRequested', {
          aggregateId: challenge.id,
          actorId: user.id,
          data: {
            email,
            locale,
            challengeName: challenge.name,
            sharedBy: known?.username ?? null,
            slug: challenge.slug,
          },
        }),
      ),
    ),
  );
  return { link, whatsappText: text, invitedCount: emails.length };
}

// ---- Discover lists ------------------------------------------------------------------------

export const DISCOVER_LISTS = ['all', 'solo', 'duel', 'following'] as const;
export type DiscoverList = (typeof DISCOVER_LISTS)[number];

/** How long a count of everyone's public challenges is reused (docs/adr/0043). */
export const PUBLIC_COUNT_TTL_MS = 5_000;

/**
 * The public part of the all, solo and duel totals is the same for every viewer: counted once
 * per list every few seconds in each instance, not on every request.
 */
function createPublicCounts(ttlMs: number) {
  // Per database: tests run several services in one process.
  const caches = new WeakMap<Database, Map<string, { at: number; value: Promise<number> }>>();
  return {
    get(db: Database, type: 'solo' | 'duel' | undefined): Promise<number> {
      let cache = caches.get(db);
      if (!cache) caches.set(db, (cache = new Map()));
      const key = type ?? 'all';
      const hit = cache.get(key);
      if (hit && Date.now() - hit.at < ttlMs) return hit.value;
      const value = publicDiscoverCount(db, type, LIST_DEPTH_MAX);
      cache.set(key, { at: Date.now(), value });
      value.catch(() => cache.delete(key));
      return value;
    },
  };
}
export const publicCounts = createPublicCounts(PUBLIC_COUNT_TTL_MS);

export async function discover(
  db: Database,
  viewer: AuthUser | null,
  input: { list: string; page: PageRequest },
  judgingWindowMs?: number,
): Promise<{ challenges: ChallengeView[]; pagination: Pagination }> {
  if (!(DISCOVER_LISTS as readonly string[]).includes(input.list)) {
    throw new AppError('invalid_input', `list is one of ${DISCOVER_LISTS.join(', ')}`);
  }
  const list = input.list as DiscoverList;
  if (list === 'following' && !viewer) throw new AppError('unauthorized');
  const window = pageWindow(input.page); // 10,000 items deep at most (LIST_DEPTH_MAX)
  const query = {
    viewerId: viewer?.id ?? null,
    challengeType: list === 'solo' || list === 'duel' ? list : undefined,
    followedBy: list === 'following' ? viewer!.id : undefined,
    ...window,
    countLimit: LIST_DEPTH_MAX,
  } as const;
  const [items, everyone, own] = await Promise.all([
    discoverPage(db, query),
    query.followedBy ? 0 : publicCounts.get(db, query.challengeType),
    // A visitor has no private challenges and follows nobody: nothing of theirs to count.
    query.viewerId ? viewerDiscoverCount(db, query) : 0,
  ]);
  const total = Math.min(everyone + own, LIST_DEPTH_MAX);
  // A party reads their own private challenge as a party (not as staff: discover is not a staff tool).
  const reader = readerOf(viewer);
  return {
    challenges: items.map((item) => toChallengeView(item, reader, judgingWindowMs)),
    pagination: paginationOf(input.page, total),
  };
}

// ---- Profile lists -------------------------------------------------------------------------

/**
 * Private items appear in a profile's lists only when its owner looks and asks (showPrivate);
 * the same rule for a direct entity reference, whatever the representation claims.
 */
export const revealsPrivate = (viewer: AuthUser | null, profileId: string, showPrivate: boolean) =>
  showPrivate && viewer?.id === profileId;

/** A page of one profile list, newest first; as deep as every list goes (LIST_DEPTH_MAX). */
export async function profileList(
  db: Database,
  viewer: AuthUser | null,
  profileId: string,
  list: ProfileList | 'respectedVideos',
  showPrivate: boolean,
  page: PageRequest,
  judgingWindowMs?: number,
): Promise<ChallengeView[]> {
  const withPrivate = revealsPrivate(viewer, profileId, showPrivate);
  const window = pageWindow(page);
  const rows =
    list === 'respectedVideos'
      ? await respectedChallenges(db, profileId, withPrivate, window)
      : await profileChallenges(db, profileId, list, withPrivate, window);
  const reader = readerOf(viewer);
  return rows.map((row) => toChallengeView(row, reader, judgingWindowMs));
}

/**
 * The four counts of a profile, read together once per request however many of them the query
 * asks for (the same private-items rule as each list).
 */
function createProfileCounts(db: Database, viewer: AuthUser | null) {
  const memo = new Map<string, Promise<ProfileCounts>>();
  return (profileId: string, showPrivate: boolean): Promise<ProfileCounts> => {
    const withPrivate = revealsPrivate(viewer, profileId, showPrivate);
    const key = `${profileId}:${withPrivate}`;
    let counts = memo.get(key);
    if (!counts) memo.set(key, (counts = profileCounts(db, profileId, withPrivate)));
    return counts;
  };
}
