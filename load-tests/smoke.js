// Smoke test: a handful of users for 30 s. Proves the deployed stack answers the signed-in
// read path correctly and quickly; run it after every deployment.
//   k6 run load-tests/smoke.js                     (tokens from load-tests/data/tokens.json)
//   k6 run -e BASE_URL=http://127.0.0.1:4700 -e TOKEN=... load-tests/smoke.js
import { sleep } from 'k6';
import { SharedArray } from 'k6/data';
import {
  THRESHOLDS,
  loadTokens,
  readProfileAndWallet,
  requireTokens,
} from './lib/profile-and-wallet.js';

const tokens = new SharedArray('tokens', () => loadTokens(() => open('./data/tokens.json')));

export const options = {
  vus: 3,
  duration: '30s',
  thresholds: THRESHOLDS,
};

export function setup() {
  requireTokens(tokens);
}

export default function () {
  readProfileAndWallet(tokens[(__VU - 1) % tokens.length]);
  sleep(1);
}
