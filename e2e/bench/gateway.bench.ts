/**
 * The gateway's overhead (issue 21), on the platform as it ships: every service and the gateway
 * as separate processes from their production bundles (`node dist/index.js`, as `npm start` runs
 * them), on free ports, their own databases and topics.
 *
 *  - one query to one subgraph (identity's getCurrentUserProfile), straight to identity (with the
 *    gateway's credential, as the gateway sends it) and through the gateway, at 1 and at 20
 *    connections: the gateway's added latency at 1 (goal: under 2 ms) and its throughput as a
 *    share of the direct one at 20 (goal: at least 0.6x);
 *  - identity + wallet in one query through the gateway at 1 and 20 connections (goal at 20: at
 *    least 300 req/s, p95 under 100 ms);
 *  - getWallet straight to wallet at 20 connections (the heaviest signed-in read of the first
 *    page).
 *
 * Beside each figure the CPU time each process spent per request, which other work on a shared
 * machine does not change. With BEFORE_CHECKOUT (a built worktree of an older commit) the same
 * cases run on its bundles too, alternating with this checkout's, REPEATS times: before and after
 * side by side in one run, medians of the repetitions. With BENCH_CPU_PROFILE=<folder> every
 * process runs with --cpu-prof, and the top items of the gateway's and the subgraphs' profiles
 * are printed, by self and by total time (the .cpuprofile files stay in the folder for a flame
 * graph). BENCH_CONNECTIONS=1 (or 20) runs only the cases at that many connections, so that a
 * profile covers one load level.
 *
 *   npm run bench -- gateway
 *   BEFORE_CHECKOUT=/work/wt/old npm run bench -- gateway
 */
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { eventually } from '@challenge/testing';
import { developmentSecret } from '../../scripts/lib/platform.mjs';
import { repoRoot } from '../../scripts/lib/stack-config.mjs';
import globalSetup from '../../packages/testing/src/global-setup.ts';
import { env } from '../src/env.ts';
import {
  bundleLauncher,
  signUp,
  startProcessPlatform,
  type Launcher,
  type ProcessPlatform,
} from '../support/processes.ts';
import { buildBundles } from './lib/bundles.ts';
import { monotonicMicros, summariseProfile, type Window } from './lib/cpu-profile.ts';
import { runLoad, stackPids, type LoadResult, type LoadTarget } from './lib/load.ts';
import { median, sized, startBench, type Cell } from './lib/results.ts';

const USERS = sized(10, 2);
const REPEATS = env.benchRepeats ?? sized(3, 1);
const SECONDS = sized(8, 0.3);

const PROFILE_QUERY = '{ getCurrentUserProfile { status { success } profile { username } } }';
const PROFILE_AND_WALLET =
  '{ getCurrentUserProfile { status { success } profile { username } } getWallet { status { success } wallet { availableAmount } } }';
const WALLET_QUERY =
  '{ getWallet { status { success } wallet { availableAmount freezeAmount totalAmount openPayoutAmount currency limits { depositedThisMonth withdrawnThisMonth monthlyDepositLimit } } } }';

interface Side {
  label: string;
  checkout: string;
  platform?: ProcessPlatform;
  tokens: string[];
  /** When its load ran: its profiles' top items count these stretches only. */
  windows: Window[];
}

const sides: Side[] = [{ label: 'after', checkout: repoRoot, tokens: [], windows: [] }];
if (env.beforeCheckout)
  sides.unshift({ label: 'before', checkout: env.beforeCheckout, tokens: [], windows: [] });
const bench = startBench('gateway', { beforeCheckout: env.beforeCheckout });

const profiled =
  (launch: Launcher, dir: string): Launcher =>
  (workspace) => {
    const plain = launch(workspace);
    const out = path.join(dir, path.basename(workspace));
    // A profile an earlier run left there would be read instead of this run's.
    rmSync(out, { recursive: true, force: true });
    mkdirSync(out, { recursive: true });
    return { ...plain, args: ['--cpu-prof', `--cpu-prof-dir=${out}`, ...plain.args] };
  };

/**
 * The limits this run needs, set on the gateway like any deployment sets them: every request
 * comes from 127.0.0.1, at most a few thousand a second from USERS users; a sign-up per user.
 */
const LIMITS = {
  RATE_LIMIT_GRAPHQL: '300000/1m',
  RATE_LIMIT_GRAPHQL_USER: '300000/1m',
  RATE_LIMIT_GRAPHQL_ADDRESS_CEILING: '300000/1m',
  RATE_LIMIT_REQUEST_LOGIN_LINK: `5/${USERS * 2}/1m`,
  RATE_LIMIT_VERIFY_USER: `5/${USERS * 2}/1m`,
};

await globalSetup();
// PostgreSQL and Redis serve both sides: their CPU per request completes the machine's budget.
const postgresAndRedis = await stackPids(['postgres', 'redis']);
const gatewaySecret = developmentSecret('gateway-secret');
try {
  for (const side of sides) {
    buildBundles(side.checkout);
    const launch = bundleLauncher(side.checkout);
    side.platform = await startProcessPlatform(
      env.benchCpuProfile ? profiled(launch, path.join(env.benchCpuProfile, side.label)) : launch,
      { limits: LIMITS },
    );
    for (let i = 0; i < USERS; i += 1) {
      const user = await signUp(side.platform);
      if (!user.status.success) throw new Error('sign-up failed');
      side.tokens.push(user.token);
      // Its wallet opens when wallet consumed UserRegistered.
      await eventually(async () => {
        const data = await user.send('{ getWallet { status { success } } }');
        if (!data.getWallet.status.success) throw new Error('no wallet yet');
      });
    }
  }

  const allCases = [
    { name: 'profile, direct to identity', connections: 1, via: 'identity', query: PROFILE_QUERY },
    { name: 'profile, through the gateway', connections: 1, via: 'gateway', query: PROFILE_QUERY },
    { name: 'profile, direct to identity', connections: 20, via: 'identity', query: PROFILE_QUERY },
    { name: 'profile, through the gateway', connections: 20, via: 'gateway', query: PROFILE_QUERY },
    { name: 'profile + wallet, through the gateway', connections: 1, via: 'gateway', query: PROFILE_AND_WALLET },
    { name: 'profile + wallet, through the gateway', connections: 20, via: 'gateway', query: PROFILE_AND_WALLET },
    { name: 'getWallet (all fields), direct to wallet', connections: 20, via: 'wallet', query: WALLET_QUERY },
  ] as const; // prettier-ignore
  const cases = allCases.filter(
    (item) => env.benchConnections === undefined || item.connections === env.benchConnections,
  );

  const target = (side: Side, via: string, query: string): LoadTarget => {
    const platform = side.platform!;
    let next = 0;
    const body = JSON.stringify({ query });
    const direct = via !== 'gateway';
    return {
      url: direct ? platform.serviceUrls[via]! : platform.gatewayUrl,
      body,
      get headers() {
        const token = side.tokens[next++ % side.tokens.length]!;
        return {
          authorization: `Bearer ${token}`,
          ...(direct ? { 'x-gateway-secret': gatewaySecret } : {}),
        };
      },
    };
  };

  // results[case][side] = one LoadResult per repetition
  const results = cases.map(() =>
    Object.fromEntries(sides.map((side) => [side.label, [] as LoadResult[]])),
  );
  for (let repeat = 0; repeat < REPEATS; repeat += 1) {
    // Alternate which side goes first, so that neither always meets the same neighbours' load.
    const order = repeat % 2 ? [...sides].reverse() : sides;
    for (const [i, item] of cases.entries()) {
      for (const side of order) {
        const pids = Object.fromEntries(side.platform!.processes.map((p) => [p.name, p.pid]));
        const watch = Object.fromEntries(
          ['gateway', 'identity', 'wallet'].map((name) => [name, pids[name]!]),
        );
        const started = monotonicMicros();
        const result = await runLoad(target(side, item.via, item.query), {
          connections: item.connections,
          seconds: SECONDS,
          watch,
          watchTrees: postgresAndRedis,
        });
        side.windows.push([started, monotonicMicros()]);
        if (result.errors > 0) {
          throw new Error(
            `${item.name} (${side.label}): ${result.errors} failed, first: ${result.firstError}`,
          );
        }
        results[i]![side.label]!.push(result);
      }
    }
  }

  const m = (list: LoadResult[], pick: (r: LoadResult) => number) => median(list.map(pick));
  const rows: Cell[][] = [];
  for (const [i, item] of cases.entries()) {
    for (const side of sides) {
      const list = results[i]![side.label]!;
      rows.push([
        `${item.name}, ${item.connections} conn.`,
        side.label,
        m(list, (r) => r.perSecond),
        m(list, (r) => r.p50),
        m(list, (r) => r.p95),
        m(list, (r) => r.p99),
        m(list, (r) => r.cpuPerRequest.gateway!),
        m(list, (r) => r.cpuPerRequest.identity!),
        m(list, (r) => r.cpuPerRequest.wallet!),
        m(list, (r) => r.cpuPerRequest.postgres ?? NaN),
        m(list, (r) => r.cpuPerRequest.redis ?? NaN),
        m(list, (r) => r.cpuPerRequest.generator!),
        m(list, (r) => r.cpuPerRequest.machine!),
      ]);
    }
  }
  bench.table({
    title: `Requests for ${SECONDS} s per case, medians of ${REPEATS} repetition(s)${sides.length > 1 ? ', before and after alternating' : ''}; CPU in ms per request`,
    columns: [
      'case',
      'side',
      'req/s',
      'p50 ms',
      'p95 ms',
      'p99 ms',
      'cpu gateway',
      'cpu identity',
      'cpu wallet',
      'cpu postgres',
      'cpu redis',
      'cpu generator',
      'cpu machine',
    ],
    rows,
  });

  // The goals compare cases by their place in the full list.
  const goalRows: Cell[][] = (cases.length < allCases.length ? [] : sides).map((side) => {
    const at = (index: number, pick: (r: LoadResult) => number) =>
      m(results[index]![side.label]!, pick);
    return [
      side.label,
      at(1, (r) => r.p50) - at(0, (r) => r.p50),
      at(3, (r) => r.perSecond) / at(2, (r) => r.perSecond),
      at(5, (r) => r.perSecond),
      at(5, (r) => r.p95),
      at(6, (r) => r.p50),
    ];
  });
  if (goalRows.length)
    bench.table({
      title: 'Against the goals of issue 21',
      columns: [
        'side',
        'gateway adds at 1 conn. (ms p50)',
        'gateway/direct at 20',
        'profile+wallet req/s at 20',
        'its p95 ms',
        'getWallet direct p50 at 20',
      ],
      rows: goalRows,
      notes: ['goals: under 2 ms; at least 0.6x; at least 300 req/s; p95 under 100 ms'],
    });
} finally {
  for (const side of sides) await side.platform?.stop();
}

if (env.benchCpuProfile) {
  for (const side of sides) {
    for (const process of ['gateway', 'identity', 'wallet']) {
      const dir = path.join(
        env.benchCpuProfile,
        side.label,
        process === 'gateway' ? 'gateway' : process,
      );
      const file = readdirSync(dir).find((name) => name.endsWith('.cpuprofile'));
      if (!file) continue;
      const summary = summariseProfile(path.join(dir, file), side.windows);
      bench.table({
        title: `CPU profile, ${process} (${side.label}): top self time of ${summary.busyMs.toFixed(0)} ms busy under load`,
        columns: ['function', 'where', 'self ms', '%'],
        rows: summary.functions.map((f) => [f.name, f.where, f.selfMs, f.share]),
        notes: [
          `by package: ${summary.packages.map((p) => `${p.name} ${p.share.toFixed(1)} %`).join(', ')}`,
        ],
      });
      bench.table({
        title: `CPU profile, ${process} (${side.label}): top total time (the function and what it calls)`,
        columns: ['function', 'where', 'total ms', '%'],
        rows: summary.totals.map((f) => [f.name, f.where, f.selfMs, f.share]),
      });
    }
  }
}
bench.finish();
process.exit(0);
