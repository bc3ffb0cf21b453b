// The money's invariants around a run, asked as staff through the gateway: before the run, the
// ledger's totals and the escrow reconciliation; after it, the sum of every ledger account still
// zero, what users hold changed by exactly the top-ups (less payouts: none here), and no
// reconciliation mismatch that was not there before. A breach counts in
// money_invariant_violations, whose threshold makes k6 exit non-zero.
import { sleep } from 'k6';
import { eventually, gql, moneyInvariantViolations } from './common.js';

const TOTALS = `query { totalMoneyInCirculation { status { success identifier } totals { walletSum totalBalance totalMoneyTopUps totalMoneyPayouts } } }`;
const RECONCILIATION = `query { escrowReconciliation { status { success identifier } holdsWithoutLiveChallenge { challengeId party reason slug } liveChallengesWithoutHold { challengeId party reason slug } } }`;

/**
 * How long a mismatch must be old before the reconciliation reports it: the wallet's
 * RECONCILIATION_GRACE_MS of the run (give the platform a short one, e.g. 10000, or the check
 * judges only what is older than the run). The teardown waits this long after the last step.
 */
const GRACE_MS = Number(__ENV.RECONCILIATION_GRACE_MS || 10_000);

function mismatches(adminToken) {
  const result = gql('ledger', 'escrowReconciliation', RECONCILIATION, {}, adminToken);
  if (!result) return null;
  return [...result.holdsWithoutLiveChallenge, ...result.liveChallengesWithoutHold].map((row) =>
    `${row.reason} ${row.challengeId} ${row.party} ${row.slug || ''}`.trim(),
  );
}

function totals(adminToken) {
  const result = gql('ledger', 'totalMoneyInCirculation', TOTALS, {}, adminToken);
  return result ? result.totals : null;
}

/** Users' money less what came in by card plus what went out to banks: only these move it. */
const unexplained = (t) => t.walletSum - t.totalMoneyTopUps + t.totalMoneyPayouts;

export function moneyBefore(adminToken) {
  const before = { totals: totals(adminToken), mismatches: mismatches(adminToken) };
  if (!before.totals || !before.mismatches)
    throw new Error('staff could not read the money totals');
  if (before.mismatches.length) {
    console.warn(
      `the reconciliation reports ${before.mismatches.length} row(s) before the run; only new ones count`,
    );
  }
  return before;
}

/**
 * After the run: waits out the reconciliation's grace, then asks until the invariants hold (the
 * last events of the run may still be on their way), for at most SETTLE_SECONDS (default 60).
 */
export function moneyAfter(adminToken, before) {
  sleep(GRACE_MS / 1000 + 1);
  let last = null;
  const held = eventually(
    'ledger: invariants hold after the run',
    () => {
      const after = totals(adminToken);
      const rows = mismatches(adminToken);
      if (!after || !rows) return false;
      const fresh = rows.filter((row) => !before.mismatches.includes(row));
      last = { after, fresh };
      return (
        after.totalBalance === 0 &&
        unexplained(after) === unexplained(before.totals) &&
        fresh.length === 0
      );
    },
    { seconds: Number(__ENV.SETTLE_SECONDS || 60), everySeconds: 2 },
  );
  const { after, fresh } = last || { after: null, fresh: [] };
  if (after) {
    console.log(
      `money: top-ups +${after.totalMoneyTopUps - before.totals.totalMoneyTopUps} cents, users' money +${after.walletSum - before.totals.walletSum} cents, payouts +${after.totalMoneyPayouts - before.totals.totalMoneyPayouts}, ledger sum ${after.totalBalance}, new reconciliation rows ${fresh.length}`,
    );
  }
  if (held) return;
  moneyInvariantViolations.add(1);
  console.error(
    `money invariants broken after the run: ${JSON.stringify({ before: before.totals, after, newReconciliationRows: fresh })}`,
  );
}
