// Signing in, as the web does it: a password log-in, or a log-in link by e-mail (its link, or its
// six-digit code, read from the dev SMTP catcher's inbox), then the first signed-in question and
// a log-out. Each virtual user signs up (through the sign-up mail) on its first visit.
//   npm run load -- sign-in                       (against npm start's platform)
//   k6 run -e BASE_URL=... -e INBOX_URL=... -e PROFILE=smoke -e MAX_VUS=10 load-tests/sign-in.js
import { sleep } from 'k6';
import { logIn, logInByMail, signUp, useThenLogOut } from './lib/accounts.js';
import { PROFILE, SUMMARY_TREND_STATS, maxVus, scenario, thresholds } from './lib/common.js';

const VUS = maxVus(10);

export const options = {
  scenarios: { signIn: scenario(VUS, { smokeIterations: 3 }) },
  thresholds: thresholds({ signup: 1000, password: 1000, link: 500 }),
  summaryTrendStats: SUMMARY_TREND_STATS,
};

/**
 * This virtual user's account, made through the sign-up mail on its first visit: each virtual
 * user is one person with one browser, so no two sign in to one account at once.
 */
let mine = null;

/** One visit: by password, by the mail's link, or by its code, in turn. */
export function signInJourney() {
  if (!mine) mine = signUp('signup', 'signin');
  const person = mine;
  if (!person) return;
  const way = __ITER % 3;
  const token =
    way === 0
      ? logIn('password', person.username, person.password)
      : logInByMail('link', person.email, way === 2);
  if (token) useThenLogOut(way === 0 ? 'password' : 'link', token);
  if (PROFILE !== 'smoke') sleep(1 + Math.random() * 2);
}

export default function () {
  signInJourney();
}
