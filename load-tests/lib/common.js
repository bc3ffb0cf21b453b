// Shared by the scenario scripts: the target, the profile (smoke or load), one GraphQL call with
// its checks, and the thresholds. A failed threshold makes `k6 run` exit non-zero.
import http from 'k6/http';
import { check } from 'k6';
import { Counter } from 'k6/metrics';

export const BASE_URL = (__ENV.BASE_URL || 'http://127.0.0.1:4700').replace(/\/+$/, '');
/** smoke: one virtual user, a few iterations (npm test); load: the ramp below. */
export const PROFILE = __ENV.PROFILE || 'load';
const MAX_VUS = Number(__ENV.MAX_VUS || 50);

/** Answers with HTTP 5xx: the thresholds allow none. */
export const serverErrors = new Counter('server_errors');

/** The executor options of a scenario for the current profile. */
export function scenario(load) {
  if (PROFILE === 'smoke') return { executor: 'per-vu-iterations', vus: 1, iterations: 2 };
  return {
    executor: 'ramping-vus',
    startVUs: 1,
    stages: load || [
      { duration: '30s', target: MAX_VUS },
      { duration: '1m', target: MAX_VUS },
      { duration: '15s', target: 0 },
    ],
    gracefulRampDown: '10s',
  };
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
  };
  if (PROFILE === 'smoke') return out;
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
    tags: { group, name: `GET ${path.split('?')[0]}` },
  });
  countServerError(res);
  check(res, { [`${group}: page 200`]: (r) => r.status === 200 });
  return res;
}

/**
 * One GraphQL operation: HTTP 200, no `errors`, and `data[field].status.success` true. Returns
 * `data[field]` (null when the answer failed a check).
 */
export function gql(group, field, query, variables = {}, token = null) {
  const headers = { 'Content-Type': 'application/json' };
  if (token) headers.Authorization = `Bearer ${token}`;
  const res = http.post(`${BASE_URL}/graphql`, JSON.stringify({ query, variables }), {
    headers,
    tags: { group, name: field },
  });
  countServerError(res);
  let body = null;
  try {
    body = res.json();
  } catch (_) {
    // left null: the checks below fail
  }
  const result = body && body.data ? body.data[field] : null;
  const ok = check(res, {
    [`${group}: ${field} HTTP 200`]: (r) => r.status === 200,
    [`${group}: ${field} no errors`]: () => body !== null && !body.errors,
    [`${group}: ${field} status.success`]: () =>
      !!result && (!result.status || result.status.success === true),
  });
  return ok ? result : null;
}
