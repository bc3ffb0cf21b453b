import { enqueueEvents, newEvent } from '@challenge/events';
import { AppError, type AuthUser, type Logger } from '@challenge/kit';
import { raiseSessionVersion, type SessionState } from '../data/auth-state.ts';
import { transactionRunner, type Database } from '../data/db.ts';
import { refuseConflictOfInterest } from './bans.ts';
import type { TokenState } from './token-state.ts';
import {
  erasePersonalData,
  findVerification,
  lockDueDeletions,
  markVerified,
  removeFollowsOf,
} from '../data/lifecycle.ts';

/**
 * A moderator confirms who someone is (spec: verify users); announced as UserVerified. Not their
 * own account nor someone they follow (docs/adr/0070).
 */
export async function verifyUserByModerator(
  db: Database,
  actor: AuthUser,
  userId: string,
): Promise<void> {
  await refuseConflictOfInterest(db, actor, userId);
  const user = await findVerification(db, userId);
  if (!user) throw new AppError('user_not_found');
  if (user.verifiedAt) throw new AppError('redundant_mutation');
  await transactionRunner(db)(async (tx) => {
    await markVerified(tx, userId, new Date());
    await enqueueEvents(tx, [
      newEvent('UserVerified', { aggregateId: userId, actorId: actor.id, data: { userId } }),
    ]);
  });
}

const MONTH_MS = 30 * 24 * 60 * 60 * 1000;

/**
 * Carries out deletion requests older than a month: personal data erased, follows removed, every
 * token refused, UserDeleted announced so other services erase theirs. Returns how many.
 */
export async function sweepDueDeletions(
  deps: { db: Database; tokenState: TokenState },
  now = new Date(),
): Promise<number> {
  const before = new Date(now.getTime() - MONTH_MS);
  const deleted = await transactionRunner(deps.db)(async (tx) => {
    const ids = await lockDueDeletions(tx, before, 100);
    const sessions: SessionState[] = [];
    for (const id of ids) {
      sessions.push(await raiseSessionVersion(tx, id, null));
      await erasePersonalData(tx, id);
      await removeFollowsOf(tx, id);
      await enqueueEvents(tx, [
        newEvent('UserDeleted', { aggregateId: id, actorId: null, data: { userId: id } }),
      ]);
    }
    return sessions;
  });
  for (const sessions of deleted) await deps.tokenState.setSessions(sessions);
  return deleted.length;
}

/** Runs the sweep every hour (and once at start); a failed run is logged and tried again later. */
export function scheduleDeletionSweep(deps: {
  db: Database;
  tokenState: TokenState;
  logger: Logger;
}): () => void {
  const run = () =>
    sweepDueDeletions(deps)
      .then((count) => count && deps.logger.info({ count }, 'accounts deleted'))
      .catch((error) => deps.logger.error({ err: error }, 'deletion sweep failed'));
  void run();
  const timer = setInterval(run, 60 * 60 * 1000);
  timer.unref();
  return () => clearInterval(timer);
}
