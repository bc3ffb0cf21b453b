/**
 * The environment of the e2e tests, read here only. FUZZ_RUNS: inputs per operation and caller
 * of the fuzz test (a few in `npm test`, thousands in `npm run fuzz`); FUZZ_SEED repeats a run.
 * The model-based test (test/model.integration.test.ts, `npm run model`): MODEL_RUNS random runs
 * after the fixed seeds, MODEL_COMMANDS at most per run; MODEL_SEED, MODEL_PATH and
 * MODEL_REPLAY (the replayPath it printed) replay one failure and nothing else; MODEL_VERBOSE=1
 * prints every run's commands and answers.
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

export const env = {
  fuzzRuns: positiveInteger('FUZZ_RUNS', 4)!,
  fuzzSeed: positiveInteger('FUZZ_SEED', undefined),
  modelRuns: positiveInteger('MODEL_RUNS', 2)!,
  modelCommands: positiveInteger('MODEL_COMMANDS', 60)!,
  modelSeed: integer('MODEL_SEED'),
  modelPath: text('MODEL_PATH'),
  modelReplay: text('MODEL_REPLAY'),
  /** Prints every run's transcript, not only a failing one's. */
  modelVerbose: text('MODEL_VERBOSE') !== undefined,
};
