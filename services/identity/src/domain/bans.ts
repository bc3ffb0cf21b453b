import { enqueueEvents, newEvent } from '@challenge/events';
import { AppError, type AuthUser } from '@challenge/kit';
import { transactionRunner, type Database } from '../data/db.ts';
import { isFollowing } from '../data/profiles.ts';
import { findUserById, updateBan } from '../data/users.ts';
import type { TokenState } from './token-state.ts';

export type BanKind = 'soft' | 'hard';

/**
 * The conflict rule for staff (docs/adr/0070), the referees' rule applied to accounts: nobody
 * bans, unbans or verifies their own account or the account of someone they follow. The follow
 * is read when the action starts; a follow the same staff member makes at that very moment is
 * not serialised with it (the action and the follow are both theirs, and both recorded).
 */
export async function refuseConflictOfInterest(
  db: Database,
  actor: AuthUser,
  userId: string,
): Promise<void> {
  if (userId === actor.id) {
    throw new AppError('access_denied', 'You cannot act on your own account.');
  }
  if (await isFollowing(db, actor.id, userId)) {
    throw new AppError('access_denied', 'You cannot act on the account of someone you follow.');
  }
}

/**
 * Bans live here; every subgraph and the gateway refuse a banned user's tokens at once through
 * the ban mark in Redis, written after the commit. A retry of a ban whose mark was not written
 * (Redis failed after the commit) writes it and succeeds; only a ban that is complete in both
 * places is `redundant_mutation`. The periodic copy of the token state repairs it too (ADR 20).
 * Only admins ban or unban admins; nobody their own account or someone they follow.
 */
export async function setBan(
  deps: { db: Database; tokenState: TokenState },
  actor: AuthUser,
  input: { userId: string; type: BanKind | null; reason?: string | null },
): Promise<void> {
  await refuseConflictOfInterest(deps.db, actor, input.userId);
  const user = await findUserById(deps.db, input.userId);
  if (!user) throw new AppError('user_not_found');
  if (user.roles.includes('admin') && !actor.roles.includes('admin')) {
    throw new AppError('access_denied', 'Only an admin can ban or unban an admin.');
  }
  const banned = input.type !== null;
  if ((user.banType ?? null) === input.type) {
    if ((await deps.tokenState.isBanMarked(user.id)) === banned) {
      throw new AppError('redundant_mutation');
    }
    await deps.tokenState.markBanned(user.id, banned);
    return;
  }
  await transactionRunner(deps.db)(async (tx) => {
    const ban = input.type
      ? { banType: input.type, bannedAt: new Date(), banReason: input.reason ?? null }
      : { banType: null, bannedAt: null, banReason: null };
    await updateBan(tx, user.id, ban);
    await enqueueEvents(tx, [
      input.type
        ? newEvent('UserBanned', {
            aggregateId: user.id,
            actorId: actor.id,
            data: { userId: user.id, type: input.type, reason: input.reason ?? null },
          })
        : newEvent('UserUnbanned', {
            aggregateId: user.id,
            actorId: actor.id,
            data: { userId: user.id, ...(input.reason ? { reason: input.reason } : {}) },
          }),
    ]);
  });
  await deps.tokenState.markBanned(user.id, banned);
}
