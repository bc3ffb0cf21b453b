/**
 * Escrow holds alone (issue 21, ADR 98), side by side: with BEFORE_CHECKOUT (a worktree of an
 * older commit with its node_modules and Prisma clients) its wallet and this checkout's run in
 * this process, each on its own database, case after case alternating, REPEATS times, so that
 * both meet the same shared machine. Cases: one at a time; CLIENTS concurrent clients over OWNERS
 * owners; the same with half the holds on 10 hot owners. Goals: at least 500/s and 250/s, p95
 * under 100 ms, no invariant broken. Beside each figure the 1-minute load average at its start and
 * end, and the queries this process sent to PostgreSQL per hold (the outbox relay's included: it
 * publishes each hold's WalletBalanceChanged). BENCH_CPU_PROFILE=<folder> profiles this process
 * during each case (the clients, the wallet's HTTP, Prisma and pg; PostgreSQL is another process)
 * and prints the top items per side.
 *
 *   BEFORE_CHECKOUT=/work/wt/old npm run bench -- escrow      BENCH_SIZE=tiny: npm test's run
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { createEscrowClient } from '@challenge/kit';
import {
  TEST_INTERNAL_API_TOKEN,
  deleteTopics,
  startTestService,
  testWalletConfig,
  uniqueTopicPrefix,
  type TestService,
} from '@challenge/testing';
import type * as walletAppModule from '@challenge/wallet/app';
import type { WalletApp } from '@challenge/wallet/app';
import type * as walletSeedModule from '@challenge/wallet/seed';
import globalSetup from '../../packages/testing/src/global-setup.ts';
import { env } from '../src/env.ts';
import { summariseProfile } from './lib/cpu-profile.ts';
import { median, percentiles, sized, startBench, type Cell } from './lib/results.ts';

const OWNERS = sized(1_000, 12);
const HOT_OWNERS = sized(10, 2);
const SEQUENTIAL = sized(200, 4);
const CONCURRENT = sized(1_000, 12);
const CLIENTS = sized(20, 3);
const REPEATS = env.benchRepeats ?? sized(2, 1);
const REWARD_CENTS = 500;
const repoRoot = path.resolve(import.meta.dirname, '..', '..');

interface Side {
  label: string;
  checkout: string;
  wallet?: TestService<WalletApp>;
  owners: string[];
  holds: number;
  failures: number;
}
const sides: Side[] = [{ label: 'after', checkout: repoRoot, owners: [], holds: 0, failures: 0 }];
if (env.beforeCheckout)
  sides.unshift({
    label: 'before',
    checkout: env.beforeCheckout,
    owners: [],
    holds: 0,
    failures: 0,
  });
const bench = startBench('escrow', { beforeCheckout: env.beforeCheckout });

/** Every query any pg client of this process sends (each checkout has its own pg module). */
let queries = 0;
const counted = Symbol('counted');
function countQueriesOf(checkout: string) {
  const fromWallet = createRequire(path.join(checkout, 'services', 'wallet', 'package.json'));
  const adapter = fromWallet.resolve('@prisma/adapter-pg');
  const pg = createRequire(adapter)('pg') as {
    Client: { prototype: Record<string | symbol, unknown> };
  };
  const proto = pg.Client.prototype;
  if (proto[counted]) return;
  const query = proto.query as (...args: unknown[]) => unknown;
  proto.query = function (this: unknown, ...args: unknown[]) {
    queries += 1;
    return query.apply(this, args);
  };
  proto[counted] = true;
}

const load1 = () => Math.round(os.loadavg()[0]! * 10) / 10;
const profileDir = env.benchCpuProfile ? path.resolve(env.benchCpuProfile) : null;
const session = profileDir ? new Session() : null;
if (session) {
  session.connect();
  await session.post('Profiler.enable');
}

await globalSetup();
const topicPrefix = uniqueTopicPrefix();
const escrowOf = (side: Side) =>
  createEscrowClient({ baseUrl: side.wallet!.url, token: TEST_INTERNAL_API_TOKEN });

for (const side of sides) {
  const walletSrc = path.join(side.checkout, 'services', 'wallet', 'src');
  const { buildApp } = (await import(
    pathToFileURL(path.join(walletSrc, 'app.ts')).href
  )) as typeof walletAppModule;
  const { seedWallet } = (await import(
    pathToFileURL(path.join(walletSrc, 'seed.ts')).href
  )) as typeof walletSeedModule;
  countQueriesOf(side.checkout);
  let walletUrl = '';
  side.wallet = await startTestService(
    'wallet',
    (runtime, url) =>
      buildApp(
        runtime,
        testWalletConfig(url, () => new URL('/webhooks/payments', walletUrl).href),
      ),
    { topicPrefix },
  );
  walletUrl = side.wallet.url;
  let next = 0;
  await Promise.all(
    Array.from({ length: 10 }, async () => {
      while (next < OWNERS) {
        next += 1;
        const ownerId = randomUUID();
        await seedWallet(side.wallet!.app.db, ownerId, 10_000_000);
        side.owners.push(ownerId);
      }
    }),
  );
}

interface Case {
  name: string;
  clients: number;
  count: number;
  owner: (side: Side, i: number) => string;
}
const cases: Case[] = [
  {
    name: 'one at a time',
    clients: 1,
    count: SEQUENTIAL,
    owner: (side, i) => side.owners[i % OWNERS]!,
  },
  {
    name: `over ${OWNERS} owners`,
    clients: CLIENTS,
    count: CONCURRENT,
    owner: (side, i) => side.owners[i % OWNERS]!,
  },
  {
    name: `half on ${HOT_OWNERS} hot owners`,
    clients: CLIENTS,
    count: CONCURRENT,
    owner: (side, i) => side.owners[i % 2 === 0 ? i % HOT_OWNERS : i % OWNERS]!,
  },
];

interface Measured {
  perSecond: number;
  p50: number;
  p95: number;
  p99: number;
  queriesPerHold: number;
  loadStart: number;
  loadEnd: number;
}
const measured = new Map<string, Measured[]>();
const profiles: { side: string; caseName: string; file: string }[] = [];

async function run(side: Side, c: Case, repeat: number): Promise<Measured> {
  const escrow = escrowOf(side);
  const times: number[] = [];
  let next = 0;
  const loadStart = load1();
  if (session) await session.post('Profiler.start');
  const queriesBefore = queries;
  const began = performance.now();
  await Promise.all(
    Array.from({ length: c.clients }, async () => {
      while (next < c.count) {
        const i = next++;
        const challengeId = randomUUID();
        const t = performance.now();
        try {
          await escrow.hold({
            challengeId,
            ownerId: c.owner(side, i),
            amountCents: REWARD_CENTS,
            slug: `bench-${challengeId.slice(0, 8)}`,
            challengeName: 'Bench',
          });
          side.holds += 1;
        } catch (error) {
          side.failures += 1;
          console.error(`${side.label}: a hold failed: ${(error as Error).message}`);
        }
        times.push(performance.now() - t);
      }
    }),
  );
  const seconds = (performance.now() - began) / 1000;
  const queriesPerHold = (queries - queriesBefore) / c.count;
  if (session && profileDir) {
    const { profile } = await session.post('Profiler.stop');
    const file = path.join(
      profileDir,
      `escrow-${side.label}-${c.name.replace(/\W+/g, '-')}-${repeat}.cpuprofile`,
    );
    mkdirSync(profileDir, { recursive: true });
    writeFileSync(file, JSON.stringify(profile));
    profiles.push({ side: side.label, caseName: c.name, file });
  }
  return {
    perSecond: c.count / seconds,
    ...percentiles(times),
    queriesPerHold,
    loadStart,
    loadEnd: load1(),
  };
}

const rows: Cell[][] = [];
for (let repeat = 1; repeat <= REPEATS; repeat += 1) {
  for (const c of cases) {
    // Alternate which side goes first, so that neither always meets the other's leftovers.
    const order = repeat % 2 === 1 ? sides : [...sides].reverse();
    for (const side of order) {
      const m = await run(side, c, repeat);
      const key = `${side.label}|${c.name}`;
      measured.set(key, [...(measured.get(key) ?? []), m]);
      rows.push([
        c.name,
        side.label,
        repeat,
        c.clients,
        c.count,
        m.perSecond,
        m.p50,
        m.p95,
        m.p99,
        m.queriesPerHold,
        `${m.loadStart} -> ${m.loadEnd}`,
      ]);
    }
  }
}

bench.table({
  title: `Escrow holds through wallet's internal call, every repetition${sides.length > 1 ? ', before and after alternating' : ''}`,
  columns: [
    'case',
    'side',
    'run',
    'clients',
    'holds',
    'per s',
    'p50 ms',
    'p95 ms',
    'p99 ms',
    'queries/hold',
    'load 1 min',
  ],
  rows,
  notes: [
    'goals (issue 21): at least 500/s over 1,000 owners, 250/s with hot owners, p95 under 100 ms',
    'queries/hold: what this process sent to PostgreSQL, the outbox relay publishing the holds included',
  ],
});
bench.table({
  title: `Medians of ${REPEATS} repetition(s)`,
  columns: ['case', 'side', 'per s', 'p50 ms', 'p95 ms', 'queries/hold'],
  rows: cases.flatMap((c) =>
    sides.map((side) => {
      const runs = measured.get(`${side.label}|${c.name}`) ?? [];
      return [
        c.name,
        side.label,
        median(runs.map((m) => m.perSecond)),
        median(runs.map((m) => m.p50)),
        median(runs.map((m) => m.p95)),
        median(runs.map((m) => m.queriesPerHold)),
      ];
    }),
  ),
});

if (profiles.length) {
  for (const side of sides) {
    for (const c of cases.slice(1)) {
      const files = profiles.filter((p) => p.side === side.label && p.caseName === c.name);
      const summary = summariseProfile(files[0]!.file, [], 12);
      bench.table({
        title: `CPU profile of this process, ${side.label}, ${c.name} (run 1; busy ${Math.round(summary.busyMs)} ms, ${(summary.busyMs / CONCURRENT).toFixed(2)} ms per hold)`,
        columns: ['self time', 'where', 'ms', '%'],
        rows: [
          ...summary.functions.map((f) => [f.name, f.where, f.selfMs, f.share]),
          ...summary.packages.map((p) => [`package ${p.name}`, '', p.selfMs, p.share]),
        ],
      });
    }
  }
}

// The invariants, per side: the ledger sums to zero, no user balance is negative, every hold that
// answered is held once and its money frozen once.
const invariantRows: Cell[][] = [];
let violations = 0;
for (const side of sides) {
  const db = side.wallet!.app.db;
  const [ledger] = await db.$queryRaw<
    { total: bigint; negative: bigint; frozen: bigint; holds: bigint; transfers: bigint }[]
  >`
    SELECT (SELECT COALESCE(SUM(balance), 0) FROM ledger_accounts)::bigint AS total,
           (SELECT COUNT(*) FROM ledger_accounts
             WHERE balance < 0 AND kind IN ('user_available', 'user_frozen'))::bigint AS negative,
           (SELECT COALESCE(SUM(balance), 0) FROM ledger_accounts WHERE kind = 'user_frozen')::bigint AS frozen,
           (SELECT COUNT(*) FROM escrow_holds WHERE status = 'held')::bigint AS holds,
           (SELECT COUNT(*) FROM ledger_transfers WHERE kind = 'escrow_hold')::bigint AS transfers`;
  const broken = [
    ledger!.total !== 0n,
    ledger!.negative > 0n,
    ledger!.frozen !== BigInt(side.holds * REWARD_CENTS),
    ledger!.holds !== BigInt(side.holds),
    ledger!.transfers !== BigInt(side.holds),
    side.failures > 0,
  ].filter(Boolean).length;
  violations += broken;
  invariantRows.push([
    side.label,
    side.holds,
    side.failures,
    String(ledger!.total),
    String(ledger!.negative),
    String(ledger!.frozen),
    String(ledger!.holds),
    String(ledger!.transfers),
    broken,
  ]);
}
bench.table({
  title: 'Invariants after the run',
  columns: [
    'side',
    'holds answered',
    'failed',
    'ledger sum',
    'negative',
    'frozen cents',
    'held',
    'hold transfers',
    'violations',
  ],
  rows: invariantRows,
});

for (const side of sides) await side.wallet!.stop();
await deleteTopics(topicPrefix);
session?.disconnect();
bench.finish();
if (violations) {
  console.error(`${violations} invariant(s) broken`);
  process.exit(1);
}
process.exit(0);
