import { AppError } from '@challenge/kit';
import type { Logger } from 'pino';
import { findChallengeById } from '../data/challenges.ts';
import { transactionRunner, type Database } from '../data/db.ts';
import { lockDueChallenges, tryLockScheduler } from '../data/scheduler.ts';
import { transitionIn } from './status.ts';

const BATCH = 100;

/**
 * One pass of the scheduler: challenges past their expiration date (open, accepted) become
 * expired (the reward goes back to the owner), and challenges in review past the owner's judging
 * window become completed (silence counts as approval). Exactly once with any number of
 * instances: one instance at a time holds the advisory lock, the rows are locked FOR UPDATE SKIP
 * LOCKED, and each change is a conditional update with its event in the same transaction.
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
        if (!challenge) continue;
        try {
          await transitionIn(tx, challenge, { action, actors: ['system'], actorId: null, now });
          changed += 1;
        } catch (error) {
          if (!(error instanceof AppError)) throw error;
          logger.warn({ challengeId: id, action, refusal: error.identifier }, 'scheduler skipped');
        }
      }
      return { changed, more: due.length === BATCH };
    });
    if (!pass) return total;
    total += pass.changed;
    if (!pass.more) return total;
  }
}

export interface Scheduler {
  stop(): Promise<void>;
}

/** Runs the scheduler every `intervalMs` until stopped; a failing pass is logged and retried. */
export function startScheduler(
  db: Database,
  options: { intervalMs: number; judgingWindowMs: number; logger: Logger },
): Scheduler {
  let stopped = false;
  let running: Promise<unknown> = Promise.resolve();
  const tick = () => {
    if (stopped) return;
    running = runSchedulerOnce(db, options.judgingWindowMs, options.logger)
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
