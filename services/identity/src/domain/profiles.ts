import { enqueueEvents, handleOnce, newEvent, type DomainEvent } from '@challenge/events';
import {
  AppError,
  isAvatarKeyOf,
  pageWindow,
  paginationOf,
  type AuthUser,
  type PageRequest,
} from '@challenge/kit';
import { z } from 'zod';
import { avatarUrl } from './avatars.ts';
import { transactionRunner, type Database } from '../data/db.ts';
import {
  findProfileById,
  lockAvatarKey,
  findProfileByUsername,
  discoverUserPage,
  follow,
  followCounts,
  followPage,
  hasPassword,
  isFollowing,
  markDeletionRequested,
  saveWalletState,
  unfollow,
  updateProfileFields,
  walletState,
  type ProfileChange,
  type ProfileRecord,
} from '../data/profiles.ts';

export const CONSUMER = 'identity';
/** Account deletion takes effect one month after the request (spec section 4). */
const DELETION_DELAY_MONTHS = 1;

export const profileInput = z.object({
  displayName: z.string().trim().min(1).max(60).nullish(),
  bio: z.string().trim().max(500).nullish(),
  /** The wallet masks amounts (kept with the account, not per browser); true by default. */
  hideAvailableAmount: z.boolean().optional(),
  /** The owner's profile lists include their private challenges; false by default. */
  showPrivateChallenges: z.boolean().optional(),
});
export const minimalChallengeInput = z.object({
  minimumChallengeEnabled: z.boolean(),
  /** Euro cents. */
  minimumChallengeValue: z.number().int().min(0).max(100_000_00),
});

/** Nobody else sees a banned, departing or private account. */
function visibleTo(profile: ProfileRecord, viewer: AuthUser | null): boolean {
  return profile.id === viewer?.id || (!profile.banType && !profile.deletionRequestedAt);
}

export async function getUserProfile(
  db: Database,
  viewer: AuthUser | null,
  username: string,
  showPrivate = false,
) {
  const profile = await findProfileByUsername(db, username);
  if (!profile || !visibleTo(profile, viewer)) throw new AppError('user_not_found');
  const own = profile.id === viewer?.id;
  if (!profile.publicProfile && !own) throw new AppError('private_profile');
  const counts = await followCounts(db, profile.id);
  return {
    ...profile,
    followersCount: counts.followers,
    followingCount: counts.following,
    isFollowing: viewer && !own ? await isFollowing(db, viewer.id, profile.id) : false,
    // Challenge's lists show private items only to the owner who asked (docs/adr/0045).
    showsPrivate: own && showPrivate,
  };
}

export const DISCOVER_USER_LISTS = ['all', 'following'] as const;

/**
 * discoverUsers: all public, active accounts, newest first; or (logged in) the accounts the
 * viewer follows, most recently followed first.
 */
export async function discoverUsers(
  db: Database,
  viewer: AuthUser | null,
  input: { list: string; page: PageRequest },
) {
  if (!(DISCOVER_USER_LISTS as readonly string[]).includes(input.list)) {
    throw new AppError('invalid_input', `list is one of ${DISCOVER_USER_LISTS.join(', ')}`);
  }
  const window = pageWindow(input.page); // 10,000 items deep at most (LIST_DEPTH_MAX)
  if (input.list === 'following') {
    if (!viewer) throw new AppError('unauthorized');
    const { users, total } = await followPage(db, viewer.id, 'following', window);
    return { items: users, pagination: paginationOf(input.page, total) };
  }
  const { users, total } = await discoverUserPage(db, window);
  return { items: users, pagination: paginationOf(input.page, total) };
}

export async function getSettings(db: Database, viewer: AuthUser) {
  const profile = await findProfileById(db, viewer.id);
  if (!profile) throw new AppError('authorized_user_not_found');
  return { ...profile, hasPassword: await hasPassword(db, viewer.id) };
}

/**
 * updateProfile, from a JSON request (avatar null: removed) or from media after it stored a new
 * picture (`avatarKey`, docs/adr/0049): the fields validated as one change, the avatar only ever
 * a key of the user's own under avatars/. Answers the fields as clients see them, and the key
 * that was replaced (media deletes that object).
 */
export async function updateOwnProfile(
  db: Database,
  viewer: Pick<AuthUser, 'id'>,
  input: { fields: unknown; avatarKey?: string | null },
) {
  const change: ProfileChange = Object.fromEntries(
    Object.entries(profileInput.parse(input.fields)).filter(([, value]) => value !== undefined),
  );
  if (input.avatarKey !== undefined) {
    if (input.avatarKey !== null && !isAvatarKeyOf(input.avatarKey, viewer.id)) {
      throw new AppError('invalid_file', 'The avatar is not an upload of this user.');
    }
    change.avatar = input.avatarKey;
  }
  const { updated, previousAvatarKey } = await changeProfileReturningPrevious(db, viewer, change);
  return {
    displayName: updated.displayName,
    bio: updated.bio,
    avatar: avatarUrl(updated.avatar),
    previousAvatarKey: previousAvatarKey !== updated.avatar ? previousAvatarKey : null,
  };
}

/** Changes the viewer's own profile; a change others display is announced (UserProfileUpdated). */
export async function changeProfile(db: Database, viewer: AuthUser, change: ProfileChange) {
  return (await changeProfileReturningPrevious(db, viewer, change)).updated;
}

async function changeProfileReturningPrevious(
  db: Database,
  viewer: Pick<AuthUser, 'id'>,
  change: ProfileChange,
) {
  return transactionRunner(db)(async (tx) => {
    // Under the row's lock: the key this change replaces (two uploads at once replace in turn).
    const previousAvatarKey = 'avatar' in change ? await lockAvatarKey(tx, viewer.id) : null;
    const updated = await updateProfileFields(tx, viewer.id, change);
    if ('challengeable' in change || 'minimumChallengeEnabled' in change) {
      // Challenge's projection needs them for its rules (docs/adr/0026), on every change.
      await enqueueEvents(tx, [
        newEvent('UserChallengeSettingsChanged', {
          aggregateId: viewer.id,
          actorId: viewer.id,
          data: {
            userId: viewer.id,
            challengeable: updated.challengeable,
            minimumChallengeCents: updated.minimumChallengeEnabled
              ? updated.minimumChallengeValue
              : null,
          },
        }),
      ]);
    }
    if ('displayName' in change || 'avatar' in change) {
      await enqueueEvents(tx, [
        newEvent('UserProfileUpdated', {
          aggregateId: viewer.id,
          actorId: viewer.id,
          data: {
            userId: viewer.id,
            displayName: updated.displayName,
            avatar: updated.avatar,
            locale: updated.locale === 'nl' ? 'nl' : 'en',
          },
        }),
      ]);
    }
    return { updated, previousAvatarKey };
  });
}

export async function setFollowing(
  db: Database,
  viewer: AuthUser,
  username: string,
  following: boolean,
) {
  const target = await findProfileByUsername(db, username);
  if (!target || !visibleTo(target, viewer)) throw new AppError('user_not_found');
  if (target.id === viewer.id) throw new AppError('invalid_action', 'You cannot follow yourself.');
  // The change and its event in one transaction: moderation's follows projection keeps a referee
  // who follows a party off the case (docs/adr/0041); challenge's feeds its following list (0044).
  const changed = await transactionRunner(db)(async (tx) => {
    const done = following
      ? await follow(tx, viewer.id, target.id)
      : await unfollow(tx, viewer.id, target.id);
    if (done) {
      await enqueueEvents(tx, [
        newEvent(following ? 'UserFollowed' : 'UserUnfollowed', {
          // Keyed by the follower: one follower's follows and unfollows stay in order.
          aggregateId: viewer.id,
          actorId: viewer.id,
          data: { followerId: viewer.id, followeeId: target.id },
        }),
      ]);
    }
    return done;
  });
  if (!changed) throw new AppError('redundant_mutation');
}

export async function listFollows(
  db: Database,
  viewer: AuthUser | null,
  username: string,
  direction: 'followers' | 'following',
  page: PageRequest,
) {
  const profile = await getUserProfile(db, viewer, username); // same visibility rules
  const { users, total } = await followPage(db, profile.id, direction, pageWindow(page));
  return { items: users, pagination: paginationOf(page, total) };
}

/**
 * Deletion is refused while the wallet holds money (including escrow) or a payout is open, as
 * wallet last reported; otherwise it is requested and takes effect a month later.
 */
export async function requestDeletion(
  db: Database,
  viewer: AuthUser,
): Promise<{ effectiveAt: Date }> {
  const profile = await findProfileById(db, viewer.id);
  if (!profile) throw new AppError('authorized_user_not_found');
  if (profile.deletionRequestedAt) throw new AppError('account_deletion_requested');
  const wallet = await walletState(db, viewer.id);
  if (wallet && wallet.openPayoutCents > 0n) throw new AppError('user_contains_open_payouts');
  if (wallet && wallet.balanceCents > 0n) throw new AppError('wallet_contains_money');
  const now = new Date();
  const effectiveAt = new Date(now);
  effectiveAt.setUTCMonth(effectiveAt.getUTCMonth() + DELETION_DELAY_MONTHS);
  await transactionRunner(db)(async (tx) => {
    await markDeletionRequested(tx, viewer.id, now);
    await enqueueEvents(tx, [
      newEvent('UserDeletionRequested', {
        aggregateId: viewer.id,
        actorId: viewer.id,
        data: { userId: viewer.id, effectiveAt: effectiveAt.toISOString() },
      }),
    ]);
  });
  return { effectiveAt };
}

export function recordWalletBalance(
  db: Database,
  event: DomainEvent<'WalletBalanceChanged'>,
): Promise<boolean> {
  return handleOnce(transactionRunner(db), CONSUMER, event.id, (tx) =>
    saveWalletState(tx, {
      userId: event.data.userId,
      balanceCents: BigInt(event.data.availableCents + event.data.frozenCents),
      openPayoutCents: BigInt(event.data.openPayoutCents),
      version: BigInt(event.data.version),
    }),
  );
}
