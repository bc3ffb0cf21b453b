// Load test of the most frequent signed-in read: the profile (identity) and the wallet (wallet)
// in one query, planned by the gateway across two subgraphs. Ramps up to 50 virtual users and
// stops by itself after 4 minutes.
//   k6 run load-tests/read-profile-and-wallet.js
//   k6 run -e BASE_URL=... -e TOKEN=... -e MAX_VUS=20 load-tests/read-profile-and-wallet.js
import { sleep } from 'k6';
import { SharedArray } from 'k6/data';
import {
  THRESHOLDS,
  loadTokens,
  readProfileAndWallet,
  requireTokens,
} from './lib/profile-and-wallet.js';

const tokens = new SharedArray('tokens', () => loadTokens(() => open('./data/tokens.json')));

const MAX_VUS = Number(__ENV.MAX_VUS || 50);

export const options = {
  scenarios: {
    ramp: {
      executor: 'ramping-vus',
      startVUs: 0,
      stages: [
        { duration: '30s', target: Math.ceil(MAX_VUS / 5) }, // warm up caches and pools
        { duration: '1m', target: MAX_VUS }, // ramp
        { duration: '2m', target: MAX_VUS }, // hold
        { duration: '30s', target: 0 }, // drain
      ],
      gracefulRampDown: '10s',
    },
  },
  thresholds: {
    ...THRESHOLDS,
    // Stop early when the platform is clearly failing instead of hammering it for 4 minutes.
    http_req_failed: [{ threshold: 'rate<0.01', abortOnFail: true, delayAbortEval: '20s' }],
  },
};

export function setup() {
  requireTokens(tokens);
}

export default function () {
  readProfileAndWallet(tokens[(__VU - 1) % tokens.length]);
  // Think time of a person reading a page: roughly 2 requests per second per user.
  sleep(0.3 + Math.random() * 0.4);
}
