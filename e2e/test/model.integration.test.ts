import { afterAll, beforeAll, describe, it } from 'vitest';
import { env } from '../src/env.ts';
import { SCENARIOS } from '../support/model/commands.ts';
import { checkModel, checkScenario } from '../support/model/run.ts';
import { ModelSystem } from '../support/model/system.ts';

/**
 * The model-based test of the money (issue 19, ADR 79): random sequences of commands (top-ups
 * through the payment sandbox, solo and duel challenges by username and e-mail, accept, decline,
 * real video uploads, approve, reject, referee decisions in the console's case, cancel, edit,
 * take offline and back, remove, ban, time passing through challenge's scheduler, two commands at
 * once on one challenge, redelivered Kafka events) through the real gateway with all six services,
 * each answer compared with the model's, and after every run the money's invariants.
 *
 * `npm test` runs the fixed seeds (60 commands at most) and MODEL_RUNS (2) random runs of at
 * most MODEL_COMMANDS (25) commands, under two minutes; `npm run model -- --runs N [--commands M]` a long run. A failure prints the shortest
 * sequence found and its replay: MODEL_SEED, MODEL_PATH and MODEL_REPLAY (`npm run model`).
 */

/**
 * Runs that run every time (each found worth keeping: see ADR 79): seed 1 (a deep run: expiries,
 * removal, a ban, redeliveries) and the shrunk failure that found issue 18 point 7 reverted (an
 * offline challenge expiring), replayed by its path. Seed 2 (duels, a referee case, pairs) made
 * `npm test` pass two minutes on the loaded machine: `npm run model` reaches such runs.
 */
const FIXED: { seed: number; path?: string; replayPath?: string; name: string }[] = [
  { seed: 1, name: 'seed 1' },
  {
    seed: 405374727,
    path: '9:2:3:4:4:4:5:5',
    replayPath: 'OAMAACKU:qC',
    name: 'an offline challenge waits while time passes (the failure that found issue 18 point 7 reverted)',
  },
];
/** The fixed runs' length bound (their sequences depend on it). */
const FIXED_COMMANDS = 60;

describe('the model-based test of every challenge path, through the gateway', () => {
  let system: ModelSystem;

  beforeAll(async () => {
    system = await ModelSystem.start();
  }, 180_000);
  afterAll(async () => {
    await system?.stop();
  });

  const maxCommands = env.modelCommands;
  const verbose = env.modelVerbose;
  if (env.modelSeed !== undefined) {
    it(
      `replays seed ${env.modelSeed}`,
      () =>
        checkModel(system, {
          seed: env.modelSeed!,
          numRuns: 1,
          maxCommands,
          path: env.modelPath,
          replayPath: env.modelReplay,
          verbose: true,
        }),
      3_600_000,
    );
    return;
  }
  for (const { seed, path, replayPath, name } of FIXED) {
    it(
      name,
      () =>
        checkModel(system, {
          seed,
          numRuns: 1,
          maxCommands: FIXED_COMMANDS,
          verbose,
          ...(path ? { path, replayPath } : {}),
        }),
      900_000,
    );
  }
  // Directed runs deep in a challenge's life (ADR 79): they catch what random runs rarely reach.
  for (const name of Object.keys(SCENARIOS)) {
    it(name, () => checkScenario(system, name), 300_000);
  }
  const seed = Date.now() % 2 ** 31;
  it(`${env.modelRuns} random runs, seed ${seed}`, () => {
    console.log(`model: random seed ${seed} (MODEL_SEED=${seed} repeats it)`);
    return checkModel(system, { seed, numRuns: env.modelRuns, maxCommands, verbose });
  }, 3_600_000);
});
