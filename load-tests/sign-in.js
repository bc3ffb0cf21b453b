// Signing in, as the web does it: a password log-in, or a log-in link by e-mail (its link, or its
// six-digit code, read from the dev SMTP catcher's inbox), then the first signed-in question and
// a log-out. The accounts are made in setup() through the sign-up mail.
//   npm run load -- sign-in                       (against npm start's platform)
//   k6 run -e BASE_URL=... -e INBOX_URL=... -e PROFILE=smoke -e MAX_VUS=10 load-tests/sign-in.js
import { sleep } from 'k6';
import { logIn, logInByMail, signUp, useThenLogOut } from './lib/accounts.js';
import { PROFILE, SUMMARY_TREND_STATS, maxVus, scenario, thresholds } from './lib/common.js';

const VUS = maxVus(10);

export const options = {
  scenarios: { signIn: scenario(VUS, { smokeIterations: 3 }) },
  thresholds: thresholds({ signup: 1000, password: 1000, link: 500 }),
  setupTimeout: '5m',
  summaryTrendStats: SUMMARY_TREND_STATS,
};

/** Accounts for `vus` virtual users (each uses its own, as a person uses one browser). */
export function prepareSignIn(vus) {
  const accounts = [];
  for (let i = 0; i < vus; i += 1) {
    const person = signUp('signup', 'signin');
    if (!person) throw new Error('sign-up failed (run with -e DEBUG=1 to see the answers)');
    accounts.push(person);
  }
  return accounts;
}

/** One visit: by password, by the mail's link, or by its code, in turn. */
export function signInJourney(accounts) {
  const person = accounts[(__VU - 1) % accounts.length];
  const way = __ITER % 3;
  const token =
    way === 0
      ? logIn('password', person.username, person.password)
      : logInByMail('link', person.email, way === 2);
  if (token) useThenLogOut(way === 0 ? 'password' : 'link', token);
  if (PROFILE !== 'smoke') sleep(1 + Math.random() * 2);
}

export function setup() {
  return { accounts: prepareSignIn(PROFILE === 'smoke' ? 1 : VUS) };
}

export default function (data) {
  signInJourney(data.accounts);
}
