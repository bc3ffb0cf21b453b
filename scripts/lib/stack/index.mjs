/** The local stack as a whole: ensureStack() provisions and starts components, stopStack() stops what this checkout started. */
import { stackUrls } from '../stack-config.mjs';
import * as chromium from './chromium.mjs';
import * as ffmpeg from './ffmpeg.mjs';
import { reporter } from './helpers.mjs';
import * as kafka from './kafka.mjs';
import * as minio from './minio.mjs';
import * as payments from './payment-sandbox.mjs';
import * as postgres from './postgres.mjs';
import * as redis from './redis.mjs';
import * as smtp from './smtp.mjs';

/** Every component by name; `tool` ones (ffmpeg, chromium) are installed, never started. */
export const components = { postgres, redis, kafka, minio, smtp, payments, ffmpeg, chromium };
export const componentNames = Object.keys(components);

const pad = (s) => s.padEnd(9);
const seconds = (ms) => `${(ms / 1000).toFixed(1)}s`;

function pick(only) {
  const names = only?.length ? only : componentNames;
  const unknown = names.filter((n) => !components[n]);
  if (unknown.length)
    throw new Error(
      `unknown stack component(s): ${unknown.join(', ')} (known: ${componentNames.join(', ')})`,
    );
  return names;
}

/**
 * Provisions what is missing, starts what is not running and waits until every component is healthy.
 * @param {{ only?: string[], quiet?: boolean }} [options] only: component names (default all); quiet: print nothing
 * @returns {Promise<{ urls: ReturnType<typeof stackUrls>, components: Array<{ name: string, reused: boolean, pid?: number|null, ms: number }> }>}
 */
export async function ensureStack({ only, quiet = false } = {}) {
  const started = Date.now();
  const names = pick(only);
  reporter.quiet = quiet;
  const say = (line) => quiet || console.log(line);

  // 1. What already answers needs nothing; 2. provision the rest (apt calls are merged and serialised,
  // mvn and go install run beside them); 3. start everything in parallel and wait for health.
  const running = await Promise.all(names.map((n) => components[n].isRunning()));
  const todo = names.filter((_, i) => !running[i]);
  const installs = await Promise.allSettled(todo.map((n) => components[n].ensureInstalled()));
  const failures = installs.flatMap((r, i) =>
    r.status === 'rejected' ? [`${todo[i]}: ${r.reason.message}`] : [],
  );
  if (failures.length) throw new Error(`stack provisioning failed:\n${failures.join('\n')}`);

  const results = await Promise.allSettled(
    names.map(async (n) => {
      const t = Date.now();
      const c = components[n];
      const r = await c.start();
      const ms = Date.now() - t;
      const where = c.tool ? r.path : c.address;
      say(
        `${pad(n)} ready  ${where}  ${c.tool || r.reused ? '(reused)' : `(started in ${seconds(ms)})`}`,
      );
      return { name: n, reused: Boolean(r.reused), pid: r.pid ?? null, ms };
    }),
  );
  const errors = results.flatMap((r) => (r.status === 'rejected' ? [r.reason.message] : []));
  if (errors.length) throw new Error(`stack start failed:\n${errors.join('\n\n')}`);
  say(`stack ready in ${seconds(Date.now() - started)}`);
  return { urls: stackUrls(), components: results.map((r) => r.value) };
}

/** Stops every process this checkout started (by pid file); components started elsewhere are left running. */
export async function stopStack({ only, quiet = false } = {}) {
  const say = (line) => quiet || console.log(line);
  const names = pick(only).filter((n) => !components[n].tool);
  await Promise.all(
    names.map(async (n) => {
      const r = await components[n].stop();
      if (r.stopped)
        say(`${pad(n)} stopped (pid ${r.pid}${r.killed ? ', killed after timeout' : ''})`);
      else if (await components[n].isRunning())
        say(`${pad(n)} left running (not started by this checkout)`);
      else say(`${pad(n)} not running`);
    }),
  );
}

/** State of each component: { name, state: up|down|installed|missing, address, pid, owner, detail? }. */
export function stackStatus({ only } = {}) {
  return Promise.all(pick(only).map((n) => components[n].status()));
}
