/**
 * Benchmarks of the money path, printed as figures (never asserted in tests):
 *  1. escrow holds through the internal call: latency sequentially and throughput 20 at a time,
 *     half of them on the same few owners (row-lock contention);
 *  2. settlement: ChallengeCompleted events from Kafka to rewards paid;
 *  3. a card top-up from the provider's "paid" to the credited balance (sandbox webhook).
 */
import { randomUUID } from 'node:crypto';
import { TOPICS, newEvent } from '@challenge/events';
import { createEscrowClient } from '@challenge/kit';
import {
  TEST_INTERNAL_API_TOKEN,
  deleteTopics,
  eventually,
  graphql,
  produceRaw,
  stack,
  startTestService,
  testWalletConfig,
  uniqueTopicPrefix,
} from '@challenge/testing';
import { buildApp as buildWallet } from '@challenge/wallet/app';
import { seedWallet } from '@challenge/wallet/seed';
import globalSetup from '../../packages/testing/src/global-setup.ts';

const SEQUENTIAL = 200;
const CONCURRENT = 1_000;
const CONCURRENCY = 20;
const TOP_UPS = 30;

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
const fmt = (ms: number) => `${ms.toFixed(1)} ms`;
const summary = (times: number[]) => {
  const sorted = [...times].sort((a, b) => a - b);
  return `p50 ${fmt(percentile(sorted, 50))} / p95 ${fmt(percentile(sorted, 95))} / p99 ${fmt(percentile(sorted, 99))}`;
};

await globalSetup();
const topicPrefix = uniqueTopicPrefix();
let walletUrl = '';
const wallet = await startTestService(
  'wallet',
  (runtime, url) =>
    buildWallet(
      runtime,
      testWalletConfig(url, () => new URL('/webhooks/payments', walletUrl).href),
    ),
  { topicPrefix },
);
walletUrl = wallet.url;
const db = wallet.app.db;
const escrow = createEscrowClient({ baseUrl: wallet.url, token: TEST_INTERNAL_API_TOKEN });

async function userWith(cents: number) {
  const userId = randomUUID();
  await seedWallet(db, userId, cents);
  return userId;
}

const owners = await Promise.all(Array.from({ length: 40 }, () => userWith(10_000_000)));
const payees = await Promise.all(Array.from({ length: 40 }, () => userWith(0)));
const challenges: { challengeId: string; ownerId: string; payee: string }[] = [];

async function hold(ownerId: string, payee: string) {
  const challengeId = randomUUID();
  await escrow.hold({
    challengeId,
    ownerId,
    amountCents: 500,
    slug: `bench-${challengeId.slice(0, 8)}`,
    challengeName: 'Bench',
  });
  challenges.push({ challengeId, ownerId, payee });
}

// 1a. Sequential latency.
const latencies: number[] = [];
for (let i = 0; i < SEQUENTIAL; i += 1) {
  const started = performance.now();
  await hold(owners[i % owners.length]!, payees[i % payees.length]!);
  latencies.push(performance.now() - started);
}
console.log(`escrow hold, sequential (${SEQUENTIAL}): ${summary(latencies)}`);

// 1b. Throughput, CONCURRENCY at a time; half the holds on 4 owners only.
let next = 0;
let started = performance.now();
const concurrentTimes: number[] = [];
await Promise.all(
  Array.from({ length: CONCURRENCY }, async () => {
    while (next < CONCURRENT) {
      const i = next++;
      const owner = i % 2 === 0 ? owners[i % 4]! : owners[i % owners.length]!;
      const t = performance.now();
      await hold(owner, payees[i % payees.length]!);
      concurrentTimes.push(performance.now() - t);
    }
  }),
);
let elapsed = performance.now() - started;
console.log(
  `escrow hold, ${CONCURRENCY} at a time (${CONCURRENT}): ${((CONCURRENT / elapsed) * 1000).toFixed(0)} holds/s, ${summary(concurrentTimes)}`,
);

// 2. Settlement from Kafka: every held challenge completes.
started = performance.now();
await produceRaw(
  topicPrefix,
  TOPICS.challenge,
  challenges.map(({ challengeId, ownerId, payee }) => {
    const event = newEvent('ChallengeCompleted', {
      aggregateId: challengeId,
      actorId: ownerId,
      data: {
        challengeId,
        slug: `bench-${challengeId.slice(0, 8)}`,
        challengeName: 'Bench',
        rewardCents: 500,
        ownerId,
        challengedUserId: payee,
        challengedEmail: null,
        judgedByReferee: false,
      },
    });
    return { key: challengeId, value: JSON.stringify(event) };
  }),
);
await eventually(async () => {
  const held = await db.escrowHold.count({ where: { status: 'held' } });
  if (held > 0) throw new Error(`${held} still held`);
}, 300_000);
elapsed = performance.now() - started;
console.log(
  `settlement: ${challenges.length} ChallengeCompleted events paid out in ${fmt(elapsed)} (${((challenges.length / elapsed) * 1000).toFixed(0)} events/s)`,
);

// 3. Top-up: provider says paid -> webhook -> balance credited.
const INITIALIZE = `mutation($input: InitializePaymentInput!) { InitializePayment(input: $input) { paymentId } }`;
const topUpTimes: number[] = [];
for (let i = 0; i < TOP_UPS; i += 1) {
  const user = payees[i % payees.length]!;
  const { data } = await graphql(
    wallet.url,
    INITIALIZE,
    { input: { amount: 1000, originUrl: '/wallet' } },
    { id: user },
  );
  const topUp = await db.topUpPayment.findUniqueOrThrow({
    where: { id: data!.InitializePayment.paymentId },
  });
  const t = performance.now();
  await fetch(
    `${stack.paymentSandbox.baseUrl}/sandbox/payments/${topUp.providerPaymentId}/status`,
    {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ status: 'paid' }),
    },
  );
  await eventually(async () => {
    const row = await db.topUpPayment.findUniqueOrThrow({ where: { id: topUp.id } });
    if (row.status !== 'paid') throw new Error('not yet');
  }, 30_000);
  topUpTimes.push(performance.now() - t);
}
console.log(`top-up, paid -> credited (${TOP_UPS}, sandbox webhook): ${summary(topUpTimes)}`);
console.log(`wallet process RSS: ${(process.memoryUsage().rss / 1024 / 1024).toFixed(0)} MiB`);

await wallet.stop();
await deleteTopics(topicPrefix);
process.exit(0);
