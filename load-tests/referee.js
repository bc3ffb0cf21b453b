// Reports and referee decisions: a challenge taken to the owner's judgement (reward in escrow,
// accepted, proof uploaded and processed), which the owner rejects; someone reports it and a
// moderator dismisses the report from the queue; a referee (the demo seed's) finds the case in
// the console's list and decides it (approve pays the challenged person, reject returns the
// reward). The ledger is checked after the run as in money.js.
//   npm run load -- referee                       (against npm start's platform)
//   k6 run -e BASE_URL=... -e INBOX_URL=... -e PROFILE=smoke load-tests/referee.js
import { sleep } from 'k6';
import { demoStaff, people, readDemoUsers } from './lib/accounts.js';
import { PROFILE, SUMMARY_TREND_STATS, maxVus, scenario, thresholds } from './lib/common.js';
import { moneyAfter, moneyBefore } from './lib/ledger.js';
import {
  challengeInReview,
  readClip,
  requireClip,
  ensureFunds,
  refereeDecides,
  reportAndDismiss,
  setStatus,
} from './lib/money.js';

const VUS = maxVus(5);
/** A real small MP4 (1 s, 160x120): npm run load and the smoke test make it with ffmpeg. */
const CLIP = readClip((file) => open(file, 'b'));
const DEMO_USERS = readDemoUsers((file) => open(file));

export const REFEREE_P95 = {
  topup: 500,
  challenge: 500,
  upload: 1500,
  poll: 300,
  report: 300,
  moderate: 500,
  referee: 500,
};

export const options = {
  scenarios: { referee: scenario(VUS, { smokeIterations: 1 }) },
  thresholds: thresholds({ ...REFEREE_P95, signup: 1000 }, { money: true }),
  setupTimeout: '5m',
  teardownTimeout: '5m',
  summaryTrendStats: SUMMARY_TREND_STATS,
};

/** This virtual user's owner, challenged person and reporter, signed up on its first round. */
let trio = null;

/** One disputed challenge: rejected, reported and dismissed, decided by the referee. */
export function refereeJourney(staff) {
  if (!trio) {
    const [owner, challenged, reporter] = people(3, 'signup', 'referee');
    trio = { owner, challenged, reporter };
  }
  const { owner, challenged, reporter } = trio;
  if (!ensureFunds(owner)) return;
  const challenge = challengeInReview(
    owner,
    challenged,
    CLIP,
    `Load ${__VU}-${__ITER}: a handstand`,
  );
  if (!challenge) return;
  if (!setStatus(owner, challenge.slug, 'referee', 'The proof phrase is missing.')) return;
  reportAndDismiss(reporter, staff.moderator, challenge.id);
  refereeDecides(staff.referee, challenge.slug, Math.random() < 0.5 ? 'approve' : 'reject');
  if (PROFILE !== 'smoke') sleep(1 + Math.random() * 2);
}

export function setup() {
  requireClip(CLIP);
  const staff = demoStaff(DEMO_USERS);
  return { staff, money: moneyBefore(staff.admin) };
}

export default function (data) {
  refereeJourney(data.staff);
}

export function teardown(data) {
  moneyAfter(data.staff.admin, data.money);
}
