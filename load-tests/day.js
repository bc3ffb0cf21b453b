// A day on the platform: the four journeys at once, weighted by how many people do each
// (MAX_VUS split: half browse signed out, a fifth sign in, a fifth move money, a tenth take a
// challenge through a report and a referee's decision). Thresholds per operation group as in
// each journey's script; failed requests under 0.1 % for the money journeys, 1 % overall; the
// ledger is checked after the run.
//   npm run load -- day                           (against npm start's platform)
//   k6 run -e BASE_URL=... -e INBOX_URL=... -e PROFILE=smoke -e MAX_VUS=20 load-tests/day.js
import { demoStaff, readDemoUsers } from './lib/accounts.js';
import { SUMMARY_TREND_STATS, maxVus, scenario, thresholds } from './lib/common.js';
import { moneyAfter, moneyBefore } from './lib/ledger.js';
import { MONEY_P95, moneyJourney, requireMoneyClip } from './money.js';
import { REFEREE_P95, refereeJourney } from './referee.js';
import { signInJourney } from './sign-in.js';
import { VISITOR_P95, visit } from './visitors.js';

const VUS = maxVus(20);
const DEMO_USERS = readDemoUsers((file) => open(file));

/** Each journey's share of the virtual users. */
const WEIGHTS = { visitors: 0.5, signIn: 0.2, money: 0.2, referee: 0.1 };
const height = (journey) => Math.max(1, Math.round(VUS * WEIGHTS[journey]));

const journeyScenario = (journey, exec, smokeIterations) =>
  scenario(height(journey), { exec, smokeIterations });

const moneyRates = ['money', 'referee'].reduce((out, name) => {
  out[`http_req_failed{scenario:${name}}`] = ['rate<0.001'];
  out[`checks{scenario:${name}}`] = ['rate>0.999'];
  return out;
}, {});

export const options = {
  scenarios: {
    visitors: journeyScenario('visitors', 'visitors', 1),
    signIn: journeyScenario('signIn', 'signIn', 3),
    money: journeyScenario('money', 'money', 1),
    referee: journeyScenario('referee', 'referee', 1),
  },
  thresholds: {
    ...thresholds(
      { ...VISITOR_P95, ...MONEY_P95, ...REFEREE_P95, signup: 1000, password: 1000, link: 500 },
      { money: true },
    ),
    // Overall the error rate of the visitors and sign-in journeys; the money journeys' stricter.
    http_req_failed: ['rate<0.01'],
    checks: ['rate>0.99'],
    ...moneyRates,
  },
  setupTimeout: '10m',
  teardownTimeout: '5m',
  summaryTrendStats: SUMMARY_TREND_STATS,
};

export function setup() {
  requireMoneyClip();
  const staff = demoStaff(DEMO_USERS);
  return {
    staff,
    money: moneyBefore(staff.admin),
  };
}

export const visitors = () => visit();
export const signIn = () => signInJourney();
export const money = () => moneyJourney();
export const referee = (data) => refereeJourney(data.staff);

export function teardown(data) {
  moneyAfter(data.staff.admin, data.money);
}
