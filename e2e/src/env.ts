/**
 * The environment of the e2e tests and benchmarks, read here only.
 *  - FUZZ_RUNS: inputs per operation and caller of the fuzz test (a few in `npm test`, thousands
 *    in `npm run fuzz`); FUZZ_SEED repeats a run.
 *  - The model-based test (test/model.integration.test.ts, `npm run model`): MODEL_RUNS random
 *    runs after the fixed seeds, MODEL_COMMANDS at most per run; MODEL_SEED, MODEL_PATH and
 *    MODEL_REPLAY (the replayPath it printed) replay one failure and nothing else;
 *    MODEL_VERBOSE=1 prints every run's commands and answers.
 *  - BENCH_SIZE: `full` (`npm run bench`) or `tiny` (the benchmarks test in `npm test`: every
 *    benchmark at a size that only proves it still runs to its end and prints its figures).
 *  - BENCH_RESULTS_DIR: where a benchmark writes its JSON (default e2e/bench-results).
 *  - BEFORE_CHECKOUT: a checkout (a worktree of an older commit, built) whose code the "before"
 *    side of a side-by-side benchmark runs; BEFORE_NODE: the Node the memory benchmark's "before"
 *    side runs on.
 *  - BENCH_CPU_PROFILE: a folder; the gateway benchmark then runs every process with --cpu-prof
 *    and writes each profile and its top functions there; BENCH_CONNECTIONS (1 or 20) runs only
 *    its cases at that many connections (a profile of one load level), BENCH_REPEATS overrides
 *    the repetitions. The escrow benchmark profiles its own process per case (ADR 98).
 *  - The bank test with faults (test/chaos.integration.test.ts, `npm run chaos`): CHAOS_MINUTES
 *    of workload by CHAOS_USERS people, a fault every CHAOS_EVERY_MS to twice that; CHAOS_KAFKA
 *    `private` (default: a broker of the run's own, restarted by the driver) or `shared`.
 */
function positiveInteger(name: string, fallback: number | undefined): number | undefined {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new Error(`${name} must be a whole number, got ${JSON.stringify(raw)}`);
  }
  return value;
}

/** A whole number that may be negative (fast-check's seeds are 32-bit integers). */
function integer(name: string): number | undefined {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return undefined;
  const value = Number(raw);
  if (!Number.isSafeInteger(value)) throw new Error(`${name} must be a whole number, got ${raw}`);
  return value;
}

const text = (name: string) => process.env[name] || undefined;

function oneOf<T extends string>(name: string, values: readonly T[], fallback: T): T {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!(values as readonly string[]).includes(raw)) {
    throw new Error(`${name} must be one of ${values.join(', ')}, got ${JSON.stringify(raw)}`);
  }
  return raw as T;
}

export const env = {
  fuzzRuns: positiveInteger('FUZZ_RUNS', 4)!,
  fuzzSeed: positiveInteger('FUZZ_SEED', undefined),
  modelRuns: positiveInteger('MODEL_RUNS', 2)!,
  modelCommands: positiveInteger('MODEL_COMMANDS', 25)!,
  modelSeed: integer('MODEL_SEED'),
  modelPath: text('MODEL_PATH'),
  modelReplay: text('MODEL_REPLAY'),
  /** Prints every run's transcript, not only a failing one's. */
  modelVerbose: text('MODEL_VERBOSE') !== undefined,
  benchSize: oneOf('BENCH_SIZE', ['full', 'tiny'] as const, 'full'),
  benchResultsDir: text('BENCH_RESULTS_DIR'),
  beforeCheckout: text('BEFORE_CHECKOUT'),
  beforeNode: text('BEFORE_NODE'),
  benchCpuProfile: text('BENCH_CPU_PROFILE'),
  benchConnections: positiveInteger('BENCH_CONNECTIONS', undefined),
  benchRepeats: positiveInteger('BENCH_REPEATS', undefined),
  chaosMinutes: positiveInteger('CHAOS_MINUTES', 1)!,
  chaosUsers: positiveInteger('CHAOS_USERS', 6)!,
  chaosEveryMs: positiveInteger('CHAOS_EVERY_MS', 6_000)!,
  /** `private`: a broker of the run's own that the driver restarts (ADR 95); `shared`: the stack's, never restarted. */
  chaosKafka: oneOf('CHAOS_KAFKA', ['private', 'shared'] as const, 'private'),
};
