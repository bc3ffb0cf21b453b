import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { endOfRunProblems, type RealRun } from './checks.ts';
import { SCENARIOS, StepCommand, commandArbitrary } from './commands.ts';
import type { ModelState } from './state.ts';
import type { ModelSystem } from './system.ts';

/** Each run's users start with this much, topped up through the payment sandbox. */
export const STARTING_CENTS = 2_000;
const USERS = 4;
const INVITES = 2;

/**
 * A fresh run on a running platform: its own users (topped up through the sandbox) and invited
 * addresses, so that runs never share state and a shrunk sequence replays alone.
 */
export async function startRun(system: ModelSystem): Promise<{ model: ModelState; real: RealRun }> {
  const accounts = await Promise.all(Array.from({ length: USERS }, () => system.newAccount()));
  await system.settle();
  const paid = await Promise.all(
    accounts.map((account) => system.topUp(account, STARTING_CENTS, 'paid')),
  );
  if (paid.some((answer) => answer !== 'ok')) throw new Error(`setup top-ups: ${paid.join(', ')}`);
  await system.settle();
  const model: ModelState = {
    users: accounts.map((account, index) => ({
      key: `u${index}`,
      id: account.id,
      username: account.username,
      email: account.email,
      banned: false,
      available: STARTING_CENTS,
      frozen: 0,
      topUps: 1,
      toppedUp: STARTING_CENTS,
    })),
    invites: Array.from({ length: INVITES }, () => ({
      email: `invited-${randomBytes(4).toString('hex')}@example.test`,
      userKey: null,
    })),
    challenges: [],
    cases: [],
    made: 0,
  };
  const real: RealRun = {
    system,
    accounts: new Map(accounts.map((account, index) => [`u${index}`, account])),
    messagesAtStart: system.messages.length,
    parkedAtStart: await system.parkedCount(),
    transcript: [],
  };
  return { model, real };
}

/**
 * The property: a random sequence of commands through the real gateway, each answer as the model
 * says, then the end-of-run invariants. A failure's message is the run's transcript.
 */
export function modelProperty(
  system: ModelSystem,
  options: { maxCommands: number; replayPath?: string; verbose?: boolean },
) {
  return fc.asyncProperty(
    fc.commands([commandArbitrary()], {
      maxCommands: options.maxCommands,
      size: 'max',
      ...(options.replayPath ? { replayPath: options.replayPath } : {}),
    }),
    async (commands) => {
      const { model, real } = await startRun(system);
      try {
        await fc.asyncModelRun(() => ({ model, real }), commands);
        // No command ran (an empty list, or none whose precondition held): the run would check
        // nothing, so fast-check draws another.
        fc.pre(real.transcript.length > 0);
        await system.settle();
        const problems = await endOfRunProblems(real, model);
        if (problems.length) throw new Error(`end of run:\n  ${problems.join('\n  ')}`);
        summarise(model, real, options.verbose);
      } catch (error) {
        if (fc.PreconditionFailure.isFailure(error)) throw error;
        // Shrinking runs many failing attempts: each says so in one line.
        const first = (error as Error).message.split('\n').slice(0, 2).join(' ');
        console.log(`model run failed after ${real.transcript.length} commands: ${first}`);
        const lines = real.transcript.map((line, at) => `  ${at + 1}. ${line}`).join('\n');
        throw new Error(`${lines || '  (no command ran)'}\n${(error as Error).message}`, {
          cause: error,
        });
      }
    },
  );
}

/** One line per run (commands answered ok of those run, by name; how the challenges ended), or the whole transcript. */
function summarise(model: ModelState, real: RealRun, verbose = false) {
  if (verbose) {
    console.log(`model run:\n${real.transcript.map((line) => `  ${line}`).join('\n')}`);
  }
  const commands = new Map<string, { ok: number; all: number }>();
  for (const line of real.transcript) {
    const name = line.startsWith('together(') ? 'together' : line.slice(0, line.indexOf('('));
    const entry = commands.get(name) ?? { ok: 0, all: 0 };
    entry.all += 1;
    const answers = line.slice(line.lastIndexOf(' -> ') + 4).split(', ');
    if (answers.every((answer) => answer === 'ok')) entry.ok += 1;
    commands.set(name, entry);
  }
  const ends = new Map<string, number>();
  for (const ch of model.challenges) {
    const name = `${ch.type} ${ch.status}`;
    ends.set(name, (ends.get(name) ?? 0) + 1);
  }
  const bothDisputed = model.challenges.filter(
    (ch) => model.cases.filter((each) => each.challengeKey === ch.key).length === 2,
  ).length;
  const decided = model.cases.filter((each) => each.decided).length;
  const withdrawn = model.cases.filter((each) => each.withdrawn).length;
  console.log(
    `model run: ${real.transcript.length} commands (${[...commands]
      .map(([name, { ok, all }]) => `${name} ${ok}/${all}`)
      .join(
        ', ',
      )}); challenges: ${[...ends].map(([name, count]) => `${count} ${name}`).join(', ') || 'none'}; cases: ${model.cases.length} (${decided} decided, ${withdrawn} withdrawn, ${bothDisputed} duels with both sides disputed)`,
  );
}

/**
 * A directed run (SCENARIOS): every step must apply (a step that does not is a broken scenario,
 * not a skipped command), each answer as the model says, then the end-of-run invariants.
 */
export async function checkScenario(system: ModelSystem, name: string): Promise<void> {
  const { model, real } = await startRun(system);
  try {
    for (const step of SCENARIOS[name]!()) {
      const command = new StepCommand(step);
      if (!command.check(model)) throw new Error(`${step.name} does not apply here`);
      await command.run(model, real);
    }
    await system.settle();
    const problems = await endOfRunProblems(real, model);
    if (problems.length) throw new Error(`end of run:\n  ${problems.join('\n  ')}`);
    summarise(model, real);
  } catch (error) {
    const lines = real.transcript.map((line, at) => `  ${at + 1}. ${line}`).join('\n');
    throw new Error(`${name}:\n${lines || '  (no step ran)'}\n${(error as Error).message}`, {
      cause: error,
    });
  }
}

/** Runs the property; on a failure, the shrunk sequence and how to replay it. */
export async function checkModel(
  system: ModelSystem,
  parameters: {
    seed: number;
    numRuns: number;
    maxCommands: number;
    path?: string;
    replayPath?: string;
    verbose?: boolean;
  },
): Promise<void> {
  const details = await fc.check(modelProperty(system, parameters), {
    seed: parameters.seed,
    numRuns: parameters.numRuns,
    // Uniform lengths and indices: biased generation makes most runs a handful of commands.
    unbiased: true,
    ...(parameters.path ? { path: parameters.path, endOnFailure: true } : {}),
  });
  if (!details.failed) return;
  const commands = String(details.counterexample?.[0] ?? '');
  const replay = /replayPath="([^"]*)"/.exec(commands)?.[1] ?? '';
  throw new Error(
    [
      `The model and the platform disagree (seed ${details.seed}, ${details.numShrinks} shrinks).`,
      `Shortest sequence found:`,
      (details.errorInstance as Error | undefined)?.message ?? 'no error',
      `Replay: MODEL_SEED=${details.seed} MODEL_PATH=${details.counterexamplePath} MODEL_REPLAY='${replay}' npm run model -- --commands ${parameters.maxCommands}`,
    ].join('\n'),
  );
}
