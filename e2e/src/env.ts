/**
 * The environment of the e2e tests, read here only. FUZZ_RUNS: inputs per operation and caller
 * of the fuzz test (a few in `npm test`, thousands in `npm run fuzz`); FUZZ_SEED repeats a run.
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

export const env = {
  fuzzRuns: positiveInteger('FUZZ_RUNS', 4)!,
  fuzzSeed: positiveInteger('FUZZ_SEED', undefined),
};
