// Shared by the load-test scripts: the target, the tokens and the request under test.
import http from 'k6/http';
import { check, fail } from 'k6';

export const BASE_URL = (__ENV.BASE_URL || 'http://127.0.0.1:4700').replace(/\/+$/, '');

// The seed writes load-tests/data/tokens.json: an array of bearer tokens (strings), or of
// objects with a `token` field, or { "tokens": [...] }. Without it, TOKEN is used for every VU.
// `readFile` is the entry script's () => open('./data/tokens.json'): open() only works in the
// init context, relative to the script that calls it.
export function loadTokens(readFile) {
  let raw;
  try {
    raw = JSON.parse(readFile());
  } catch (_) {
    return __ENV.TOKEN ? [__ENV.TOKEN] : [];
  }
  const list = Array.isArray(raw) ? raw : raw.tokens || [];
  return list.map((t) => (typeof t === 'string' ? t : t && t.token)).filter(Boolean);
}

export const QUERY =
  'query { getCurrentUserProfile { status { success identifier } profile { username } } ' +
  'getWallet { status { success } wallet { availableAmount } } }';

// Call from setup(): a run without a token would only measure 401s.
export function requireTokens(tokens) {
  if (tokens.length === 0) {
    fail(
      'no token: run the seed (writes load-tests/data/tokens.json) or pass -e TOKEN=<bearer token>',
    );
  }
}

// One virtual user keeps one identity for the whole run, like a signed-in browser tab:
// call with tokens[(__VU - 1) % tokens.length].
export function readProfileAndWallet(token) {
  const res = http.post(`${BASE_URL}/graphql`, JSON.stringify({ query: QUERY }), {
    headers: {
      'Content-Type': 'application/json',
      Authorization: `Bearer ${token}`,
    },
    tags: { name: 'getCurrentUserProfile+getWallet' },
  });
  let body = null;
  try {
    body = res.json();
  } catch (_) {
    // left null: the checks below fail
  }
  const data = (body && body.data) || {};
  check(res, {
    'HTTP 200': (r) => r.status === 200,
    'no GraphQL errors': () => body !== null && !body.errors,
    'profile status.success': () =>
      !!data.getCurrentUserProfile && data.getCurrentUserProfile.status.success === true,
    'wallet status.success': () => !!data.getWallet && data.getWallet.status.success === true,
  });
  return res;
}

// The thresholds every script shares: fewer than 1 % failed requests, 95 % answered within
// 300 ms, and the envelope's status.success true (checks) in at least 99 % of the answers.
export const THRESHOLDS = {
  http_req_failed: ['rate<0.01'],
  http_req_duration: ['p(95)<300'],
  checks: ['rate>0.99'],
};
