// Shared by the scenario scripts: the target, the profile (smoke or load), one GraphQL call with
// its checks, and the thresholds. A failed threshold makes `k6 run` exit non-zero.
import http from 'k6/http';
import { check, sleep } from 'k6';
import { Counter } from 'k6/metrics';

export const BASE_URL = (__ENV.BASE_URL || 'http://127.0.0.1:4700').replace(/\/+$/, '');
/** smoke: one virtual user, a few iterations (npm test); load: the ramp below. */
export const PROFILE = __ENV.PROFILE || 'load';

/** The summary's columns: the figures of load-tests/README.md (p50 is `med`). */
export const SUMMARY_TREND_STATS = ['avg', 'med', 'p(95)', 'p(99)', 'max', 'count'];

/** Answers with HTTP 5xx: the thresholds allow none. */
export const serverErrors = new Counter('server_errors');

/** Money that moved other than the platform's rules say (lib/ledger.js): the thresholds allow none. */
export const moneyInvariantViolations = new Counter('money_invariant_violations');

/** DURATION (e.g. `-e DURATION=45s`): a steady run at the full height instead of the ramp. */
const DURATION = __ENV.DURATION || '';

/**
 * The executor options of a scenario for the current profile: smoke, one virtual user and
 * `smokeIterations`; load, a ramp to `height` virtual users, held a minute, and down again (or,
 * with DURATION, 5 s up and DURATION at `height`: the runs behind load-tests/README.md's figures).
 */
export function scenario(height, { smokeIterations = 2, exec } = {}) {
  const named = exec ? { exec } : {};
  if (PROFILE === 'smoke') {
    return { executor: 'per-vu-iterations', vus: 1, iterations: smokeIterations, ...named };
  }
  const stages = DURATION
    ? [
        { duration: '5s', target: height },
        { duration: DURATION, target: height },
      ]
    : [
        { duration: '30s', target: height },
        { duration: '1m', target: height },
        { duration: '15s', target: 0 },
      ];
  return { executor: 'ramping-vus', startVUs: 1, stages, gracefulRampDown: '30s', ...named };
}

/** The height of the load profile: MAX_VUS, or the scenario's own default. */
export function maxVus(fallback) {
  return Number(__ENV.MAX_VUS || fallback);
}

/**
 * Thresholds: no 5xx, fewer than 1 % failed requests (`money`: 0.1 %), checks passing, and a p95
 * per operation group (ms). The smoke profile (npm test, a shared machine) checks answers, never
 * times: its p95 thresholds are left out.
 */
export function thresholds(p95ByGroup, { money = false } = {}) {
  const out = {
    server_errors: ['count<1'],
    http_req_failed: [money ? 'rate<0.001' : 'rate<0.01'],
    checks: [money ? 'rate>0.999' : 'rate>0.99'],
    // The platform's own requests (not the inbox's or the payment sandbox's): shown apart in the
    // summary, and a scenario that sent none has proved nothing.
    'http_reqs{target:platform}': ['count>0'],
  };
  if (money) out.money_invariant_violations = ['count<1'];
  if (PROFILE === 'smoke') return out;
  out['http_req_duration{target:platform}'] = ['p(99)<5000'];
  for (const [group, p95] of Object.entries(p95ByGroup)) {
    out[`http_req_duration{group:${group}}`] = [`p(95)<${p95}`];
  }
  return out;
}

function countServerError(res) {
  if (res.status >= 500) serverErrors.add(1, { name: res.request ? res.request.url : '' });
}

/** A page of the web app (the SPA's index.html). */
export function page(path, group) {
  const res = http.get(`${BASE_URL}${path}`, {
    tags: { group, name: `GET ${path.split('?')[0]}`, target: 'platform' },
  });
  countServerError(res);
  check(res, { [`${group}: page 200`]: (r) => r.status === 200 });
  return res;
}

/** One POST to /graphql, unchecked: the response, its parsed body, and `data[field]`. */
export function send(group, field, query, variables = {}, token = null, params = {}) {
  const { body: rawBody, headers: extraHeaders, ...rest } = params;
  const headers = { 'Content-Type': 'application/json', ...(extraHeaders || {}) };
  if (token) headers.Authorization = `Bearer ${token}`;
  const body = rawBody || JSON.stringify({ query, variables });
  const res = http.post(`${BASE_URL}/graphql`, body, {
    ...rest,
    headers,
    tags: { group, name: field, target: 'platform' },
  });
  countServerError(res);
  let parsed = null;
  try {
    parsed = res.json();
  } catch (_) {
    // left null: the caller's checks fail
  }
  const result = parsed && parsed.data ? parsed.data[field] : null;
  return { res, body: parsed, result };
}

/** The checks of one answer: HTTP 200, no `errors`, `status.success`. */
export function checkAnswer(group, field, { res, body, result }) {
  const ok = check(res, {
    [`${group}: ${field} HTTP 200`]: (r) => r.status === 200,
    [`${group}: ${field} no errors`]: () => body !== null && !body.errors,
    [`${group}: ${field} status.success`]: () =>
      !!result && (!result.status || result.status.success === true),
  });
  if (!ok && __ENV.DEBUG)
    console.warn(`${group}: ${field}: ${res.status} ${String(res.body).slice(0, 400)}`);
  return ok;
}

/**
 * One GraphQL operation: HTTP 200, no `errors`, and `data[field].status.success` true. Returns
 * `data[field]` (null when the answer failed a check).
 */
export function gql(group, field, query, variables = {}, token = null, params = {}) {
  const answer = send(group, field, query, variables, token, params);
  return checkAnswer(group, field, answer) ? answer.result : null;
}

/**
 * An operation whose answer sets the session cookie (sign-up, log-in, a verified link or code):
 * sent with a cookie jar of its own, so the virtual user's jar keeps nobody's session, and the
 * cookie's value returned as the bearer token the API takes (null when a check failed).
 */
export function signIn(group, field, query, variables) {
  const answer = send(group, field, query, variables, null, { jar: new http.CookieJar() });
  const session = answer.res.cookies.session;
  const token = session && session.length ? session[0].value : null;
  const ok = checkAnswer(group, field, answer);
  const hasToken = check(answer.res, { [`${group}: ${field} session cookie`]: () => !!token });
  return ok && hasToken ? token : null;
}

/**
 * Asks `attempt` (a function returning a value, or null while not yet) every `everySeconds` until
 * it answers or `seconds` pass: what a page that waits for the platform's events does. One check
 * records whether it came in time.
 */
export function eventually(label, attempt, { seconds = 60, everySeconds = 0.5 } = {}) {
  const deadline = Date.now() + seconds * 1000;
  let value = attempt();
  while ((value === null || value === undefined || value === false) && Date.now() < deadline) {
    sleep(everySeconds);
    value = attempt();
  }
  const arrived = value !== null && value !== undefined && value !== false;
  check(null, { [`${label} within ${seconds} s`]: () => arrived });
  return arrived ? value : null;
}
