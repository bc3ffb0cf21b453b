/**
 * Benchmarks of the foundation slice, printed as figures (never asserted in tests):
 *  1. event throughput: UserRegistered events from identity's outbox to wallets created;
 *  2. gateway latency of getCurrentUserProfile + getWallet, sequential and 20 at a time;
 *  3. memory (RSS) of the process hosting identity, wallet and the gateway after the run.
 */
import { buildApp as buildIdentity } from '@challenge/identity/app';
import { seedUser } from '@challenge/identity/seed';
import {
  deleteTopics,
  eventually,
  graphql,
  startTestService,
  testIdentityConfig,
  tokenFor,
  uniqueTopicPrefix,
  testWalletConfig,
} from '@challenge/testing';
import { buildApp as buildWallet } from '@challenge/wallet/app';
import { walletCount } from '@challenge/wallet/seed';
import { startTestGateway } from '../support/gateway.ts';
import globalSetup from '../../packages/testing/src/global-setup.ts';

const USERS = 300;
const REQUESTS = 400;
const CONCURRENCY = 20;

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
const fmt = (ms: number) => `${ms.toFixed(1)} ms`;

await globalSetup();
const topicPrefix = uniqueTopicPrefix();
const [identity, wallet] = await Promise.all([
  startTestService(
    'identity',
    async (runtime, url) => buildIdentity(runtime, await testIdentityConfig(url)),
    {
      topicPrefix,
    },
  ),
  startTestService('wallet', (runtime, url) => buildWallet(runtime, testWalletConfig(url)), {
    topicPrefix,
  }),
]);
const gateway = await startTestGateway({ identity: identity.url, wallet: wallet.url });
const url = gateway.url;

// 1. Throughput: register users (each commits its UserRegistered to the outbox) and wait for wallets.
let started = performance.now();
const users: Awaited<ReturnType<typeof seedUser>>[] = [];
for (let i = 0; i < USERS; i += 1) users.push(await seedUser(identity.app.db));
const registeredMs = performance.now() - started;
await eventually(async () => {
  const last = users[users.length - 1]!;
  if ((await walletCount(wallet.app.db, last.id)) !== 1) throw new Error('not yet');
}, 120_000);
const totalMs = performance.now() - started;
console.log(
  `event throughput: ${USERS} users registered in ${fmt(registeredMs)}; all wallets created after ${fmt(totalMs)}`,
);
console.log(
  `  = ${((USERS / totalMs) * 1000).toFixed(0)} users/s from sign-up commit to wallet (outbox -> Kafka -> consumer)`,
);

// 2. Latency through the gateway.
const query =
  '{ getCurrentUserProfile { status { success } profile { username } } getWallet { status { success } wallet { availableAmount } } }';
const tokens = await Promise.all(users.slice(0, 50).map((user) => tokenFor({ id: user.id })));
const timed = async (i: number) => {
  const t = performance.now();
  const response = await graphql<{ getWallet: { status: { success: boolean } } }>(
    url,
    query,
    {},
    { token: tokens[i % tokens.length]! },
  );
  if (!response.data?.getWallet.status.success) throw new Error('request failed');
  return performance.now() - t;
};
for (let i = 0; i < 50; i += 1) await timed(i); // warm-up
const sequential: number[] = [];
for (let i = 0; i < REQUESTS; i += 1) sequential.push(await timed(i));
sequential.sort((a, b) => a - b);
console.log(
  `gateway sequential (${REQUESTS}): p50 ${fmt(percentile(sequential, 50))}, p95 ${fmt(percentile(sequential, 95))}, p99 ${fmt(percentile(sequential, 99))}`,
);

started = performance.now();
const concurrent: number[] = [];
let next = 0;
await Promise.all(
  Array.from({ length: CONCURRENCY }, async () => {
    while (next < REQUESTS) concurrent.push(await timed(next++));
  }),
);
const wallMs = performance.now() - started;
concurrent.sort((a, b) => a - b);
console.log(
  `gateway ${CONCURRENCY} concurrent (${REQUESTS}): p50 ${fmt(percentile(concurrent, 50))}, p95 ${fmt(percentile(concurrent, 95))}, ${((REQUESTS / wallMs) * 1000).toFixed(0)} req/s`,
);
console.log(
  `memory: RSS ${(process.memoryUsage().rss / 1024 / 1024).toFixed(0)} MiB for identity + wallet + gateway in one process`,
);

await gateway.stop();
await Promise.all([identity.stop(), wallet.stop()]);
await deleteTopics(topicPrefix);
process.exit(0);
