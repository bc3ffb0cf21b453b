import { enqueueEvents, newEvent } from '@challenge/events';
import { AppError, markBanned, type AuthUser, type Redis } from '@challenge/kit';
import { transactionRunner, type Database } from '../data/db.ts';
import { findUserById, updateBan } from '../data/users.ts';

export type BanKind = 'soft' | 'hard';

/**
 * Bans live here; every subgraph and the gateway refuse a banned user's tokens at once through
 * the ban mark in Redis, written after the commit (a retry of the call writes it again).
 */
export async function setBan(
  deps: { db: Database; redis: Redis },
  actor: AuthUser,
  input: { userId: string; type: BanKind | null; reason?: string | null },
): Promise<void> {
  if (input.userId === actor.id) throw new AppError('invalid_action', 'You cannot ban yourself.');
  const user = await findUserById(deps.db, input.userId);
  if (!user) throw new AppError('user_not_found');
  if ((user.banType ?? null) === input.type) throw new AppError('redundant_mutation');
  await transactionRunner(deps.db)(async (tx) => {
    const ban = input.type
      ? { banType: input.type, bannedAt: new Date() }
      : { banType: null, bannedAt: null };
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
            data: { userId: user.id },
          }),
    ]);
  });
  await markBanned(deps.redis, user.id, input.type !== null);
}
