// The money path: a card top-up through the payment sandbox, a challenge with the reward held in
// escrow, the challenged person's acceptance and proof video (a real small MP4 through the
// gateway's multipart upload; media transcodes it), and the owner's approval, which pays the
// reward out of escrow. After the run (teardown) the ledger must add up: its accounts sum to
// zero, users' money moved by exactly the top-ups, and the escrow reconciliation has no new row.
//   npm run load -- money                         (against npm start's platform)
//   k6 run -e BASE_URL=... -e INBOX_URL=... -e PROFILE=smoke load-tests/money.js
import { sleep } from 'k6';
import { demoStaff, people, readDemoUsers } from './lib/accounts.js';
import { PROFILE, SUMMARY_TREND_STATS, maxVus, scenario, thresholds } from './lib/common.js';
import { moneyAfter, moneyBefore } from './lib/ledger.js';
import {
  REWARD_CENTS,
  challengeInReview,
  readClip,
  requireClip,
  setStatus,
  topUp,
} from './lib/money.js';

const VUS = maxVus(5);
/** A real small MP4 (1 s, 160x120): npm run load and the smoke test make it with ffmpeg. */
const CLIP = readClip((file) => open(file, 'b'));
const DEMO_USERS = readDemoUsers((file) => open(file));

export const MONEY_P95 = {
  topup: 500,
  challenge: 500,
  upload: 1500,
  poll: 300,
};

export const options = {
  scenarios: { money: scenario(VUS, { smokeIterations: 1 }) },
  thresholds: thresholds({ ...MONEY_P95, signup: 1000 }, { money: true }),
  setupTimeout: '5m',
  teardownTimeout: '5m',
  summaryTrendStats: SUMMARY_TREND_STATS,
};

/** This virtual user's owner and challenged person, signed up on its first round. */
let pair = null;

/** One round: top up the reward, dare, accept, prove, approve. */
export function moneyJourney() {
  if (!pair) {
    const [owner, challenged] = people(2, 'signup', 'money');
    pair = { owner, challenged };
  }
  const { owner, challenged } = pair;
  if (!topUp(owner.token, REWARD_CENTS)) return;
  const challenge = challengeInReview(
    owner,
    challenged,
    CLIP,
    `Load ${__VU}-${__ITER}: juggle three oranges`,
  );
  if (!challenge) return;
  setStatus(owner, challenge.slug, 'completed');
  if (PROFILE !== 'smoke') sleep(1 + Math.random() * 2);
}

/** For day.js's setup: the clip this module read. */
export const requireMoneyClip = () => requireClip(CLIP);

export function setup() {
  requireClip(CLIP);
  const staff = demoStaff(DEMO_USERS);
  return { staff, money: moneyBefore(staff.admin) };
}

export default function () {
  moneyJourney();
}

export function teardown(data) {
  moneyAfter(data.staff.admin, data.money);
}
