import type { Logger } from '@challenge/kit';
import { Gauge, type Registry } from 'prom-client';
import type { WalletConfig } from '../config.ts';
import type { Database } from '../data/db.ts';
import { reconcileEscrow } from './escrow.ts';
import { recheckMoneyTakenBack, recheckOpenTopUps, type TopUpDeps } from './payments.ts';

/**
 * Runs the escrow reconciliation on a timer: mismatches are logged as errors and exported as a
 * gauge (alert on it being above zero). Staff see the lists through escrowReconciliation. Each
 * pass also asks the provider about top-ups still open after the grace and reads its recent
 * refunds and chargebacks (their webhooks may all have been lost: recheckOpenTopUps,
 * recheckMoneyTakenBack).
 */
export function startReconciliation(
  db: Database,
  settings: WalletConfig['reconciliation'],
  logger: Logger,
  registry: Registry,
  topUps: TopUpDeps,
) {
  const mismatches = new Gauge({
    name: 'wallet_escrow_mismatches',
    help: 'Escrow holds without a live challenge, and live challenges without a hold',
    labelNames: ['kind'] as const,
    registers: [registry],
  });
  const run = async () => {
    try {
      const result = await reconcileEscrow(db, settings.graceMs);
      mismatches.set(
        { kind: 'hold_without_live_challenge' },
        result.holdsWithoutLiveChallenge.length,
      );
      mismatches.set(
        { kind: 'live_challenge_without_hold' },
        result.liveChallengesWithoutHold.length,
      );
      if (result.holdsWithoutLiveChallenge.length || result.liveChallengesWithoutHold.length) {
        logger.error(
          {
            holdsWithoutLiveChallenge: result.holdsWithoutLiveChallenge.map(
              (row) => row.challengeId,
            ),
            liveChallengesWithoutHold: result.liveChallengesWithoutHold.map(
              (row) => row.challengeId,
            ),
          },
          'escrow reconciliation found mismatches',
        );
      }
    } catch (error) {
      logger.error({ err: error }, 'escrow reconciliation failed');
    }
    try {
      await recheckOpenTopUps(topUps, settings.graceMs);
    } catch (error) {
      logger.error({ err: error }, 'the recheck of open top-ups failed');
    }
    try {
      await recheckMoneyTakenBack(topUps);
    } catch (error) {
      logger.error({ err: error }, 'the recheck of refunds and chargebacks failed');
    }
  };
  const timer = setInterval(run, settings.intervalMs);
  timer.unref();
  return {
    run,
    stop: async () => clearInterval(timer),
  };
}
