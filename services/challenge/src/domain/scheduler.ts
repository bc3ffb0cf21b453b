import { AppError, type EscrowClient } from '@challenge/kit';
import type { Logger } from 'pino';
import { deleteDrafts, findChallengeById, type ChallengeRecord } from '../data/challenges.ts';
import { transactionRunner, type Database } from '../data/db.ts';
import {
  findStaleDrafts,
  lockDueChallenges,
  lockDueDuels,
  tryLockScheduler,
} from '../data/scheduler.ts';
import { duelTimeUp } from './duel.ts';
import { transitionIn } from './status.ts';

const BATCH = 100;

/**
 * One pass of the scheduler: challenges past their expiration date (open, accepted) become
 * expired (the reward goes back to the owner), and challenges in review past the owner's judging
 * window become completed (silence counts as approval). Exactly once with any number of
 * instances: one instance at a time holds the advisory lock, the rows are locked FOR UPDATE SKIP
 * LOCKED, and each change is a conditional update with its event in the same transaction.
 * Offline challenges and registered proofs being processed wait (docs/adr/0071): the query leaves
 * them out, and the row re-read under its lock is checked again (`waits`).
 * Returns how many challenges changed (0 when another instance holds the lock).
 */
export async function runSchedulerOnce(
  db: Database,
  judgingWindowMs: number,
  logger: Logger,
  now = new Date(),
): Promise<number> {
  let total = 0;
  for (;;) {
    const pass = await transactionRunner(db)(async (tx) => {
      if (!(await tryLockScheduler(tx))) return null; // another instance is at work
      const due = await lockDueChallenges(tx, now, judgingWindowMs, BATCH);
      let changed = 0;
      for (const { id, due: action } of due) {
        const challenge = await findChallengeById(tx, id);
        if (!challenge || waits(challenge, action)) continue;
        try {
          await transitionIn(tx, challenge, { action, actors: ['system'], actorId: null, now });
          changed += 1;
        } catch (error) {
          if (!(error instanceof AppError)) throw error;
          logger.warn({ challengeId: id, action, refusal: error.identifier }, 'scheduler skipped');
        }
      }
      // Duels after acceptance: their sides time out one by one (docs/adr/0032).
      const duels = await lockDueDuels(tx, now, judgingWindowMs, BATCH);
      for (const id of duels) {
        const challenge = await findChallengeById(tx, id);
        if (!challenge || challenge.moderation) continue;
        try {
          changed += await duelTimeUp(tx, challenge, {
            now,
            judgingWindowMs,
            expire: () =>
              transitionIn(tx, challenge, {
                action: 'expire',
                actors: ['system'],
                actorId: null,
                now,
              }),
          });
        } catch (error) {
          if (!(error instanceof AppError)) throw error;
          logger.warn({ challengeId: id, refusal: error.identifier }, 'scheduler skipped a duel');
        }
      }
      return { changed, more: due.length === BATCH || duels.length === BATCH };
    });
    if (!pass) return total;
    total += pass.changed;
    if (!pass.more) return total;
  }
}

/**
 * Whether a due challenge's time stands still: hidden by staff (its parties cannot act), or,
 * for an expiry, a registered proof still being processed (docs/adr/0071).
 */
function waits(challenge: ChallengeRecord, action: 'expire' | 'judgingWindowElapsed'): boolean {
  return (
    challenge.moderation !== null || (action === 'expire' && challenge.pendingVideoId !== null)
  );
}

/** A draft older than this is a creation that never finished: requests time out far sooner. */
export const STALE_DRAFT_MS = 15 * 60_000;

/**
 * Finishes what a crash between hold and opening left (ADR 27): each stale draft's hold is
 * released (a draft that has none answers not_found) and the draft deleted. Safe in any number
 * of instances: the release is idempotent and the delete only removes a row still in draft.
 * Returns how many drafts were removed.
 */
export async function sweepStaleDrafts(
  db: Database,
  escrow: EscrowClient,
  logger: Logger,
  now = new Date(),
): Promise<number> {
  const ids = await findStaleDrafts(db, new Date(now.getTime() - STALE_DRAFT_MS), BATCH);
  const removable: string[] = [];
  for (const id of ids) {
    try {
      await escrow.release(id);
      removable.push(id);
    } catch (error) {
      if (error instanceof AppError && error.identifier === 'not_found') removable.push(id);
      else logger.error({ err: error, challengeId: id }, 'could not release a stale draft');
    }
  }
  await deleteDrafts(db, removable);
  return removable.length;
}

export interface Scheduler {
  stop(): Promise<void>;
}

/** Runs the scheduler every `intervalMs` until stopped; a failing pass is logged and retried. */
export function startScheduler(
  db: Database,
  options: {
    intervalMs: number;
    judgingWindowMs: number;
    escrow: EscrowClient;
    logger: Logger;
    /** The time a pass runs at; the wall clock unless a test moves it (days in a moment). */
    clock?: () => Date;
  },
): Scheduler {
  const clock = options.clock ?? (() => new Date());
  let stopped = false;
  let running: Promise<unknown> = Promise.resolve();
  const tick = () => {
    if (stopped) return;
    const now = clock();
    running = runSchedulerOnce(db, options.judgingWindowMs, options.logger, now)
      .then(() => sweepStaleDrafts(db, options.escrow, options.logger, now))
      .catch((error: unknown) => options.logger.error({ err: error }, 'scheduler pass failed'))
      .finally(() => {
        if (!stopped) timer = setTimeout(tick, options.intervalMs);
      });
  };
  let timer = setTimeout(tick, options.intervalMs);
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
