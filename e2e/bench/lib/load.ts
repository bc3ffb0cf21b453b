/**
 * A small closed-loop HTTP load generator for the benchmarks: `connections` keep-alive sockets,
 * each sending its next request as soon as the previous answer is read, for a number of requests
 * or a time. Node's own http client (lighter than fetch per request), so that the client costs
 * the same whichever server it measures. Also reads the CPU time each server process spent
 * meanwhile (/proc), the figure a busy shared machine does not distort: CPU per request.
 */
import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { stackStatus } from '../../../scripts/lib/stack/index.mjs';
import { processTree } from '../../support/processes.ts';
import { percentiles } from './results.ts';

export interface LoadTarget {
  url: string;
  headers: Record<string, string>;
  body: string;
  /** Whether an answer counts as a success (default: HTTP 200 without GraphQL errors). */
  ok?: (status: number, body: string) => boolean;
}

export interface LoadResult {
  requests: number;
  errors: number;
  seconds: number;
  perSecond: number;
  p50: number;
  p95: number;
  p99: number;
  /**
   * CPU milliseconds per request of each watched process (by name), of the load generator itself
   * (`generator`, this process) and of the whole machine (`machine`: every core's busy time, so
   * also PostgreSQL, Redis and the kernel's network work): where the cores are the limit, the
   * machine's figure is what sets the requests per second.
   */
  cpuPerRequest: Record<string, number>;
  /** The first failed answer, to say why. */
  firstError: string | null;
}

const CLOCK_TICKS_PER_SECOND = 100;

/** The /proc/<pid>/stat fields after the command's name (Linux). */
const statFields = (pid: number) => {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
};

/** CPU time (user + system) a process has used so far, in ms (Linux). */
function cpuMillis(pid: number): number {
  const fields = statFields(pid);
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_SECOND;
}

/**
 * CPU time of a process and all its descendants, in ms: what PostgreSQL spends (a backend
 * process per connection). The children that ended count too, through their parent's
 * cutime/cstime.
 */
function treeCpuMillis(root: number): number {
  let total = 0;
  for (const pid of processTree(root)) {
    try {
      const fields = statFields(pid);
      total +=
        ((Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14])) *
          1000) /
        CLOCK_TICKS_PER_SECOND;
    } catch {
      // gone meanwhile
    }
  }
  return total;
}

/** Busy time of all the machine's cores so far (everything but idle and I/O wait), in ms. */
function machineBusyMillis(): number {
  const line = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0]!;
  const [user, nice, system, , , irq, softirq, steal] = line
    .trim()
    .split(/\s+/)
    .slice(1)
    .map(Number);
  return ((user! + nice! + system! + irq! + softirq! + steal!) * 1000) / CLOCK_TICKS_PER_SECOND;
}

/** The pids of the local stack's components (PostgreSQL, Redis, Kafka, ...) that run. */
export async function stackPids(names: string[]): Promise<Record<string, number>> {
  return Object.fromEntries(
    (await stackStatus({ only: names }))
      .filter((component) => component.pid)
      .map((component) => [component.name, component.pid as number]),
  );
}

/**
 * CPU milliseconds used so far: by each process of `processes`, by each process of `trees` with
 * its descendants, by this process (`generator`) and by the whole machine (`machine`). Two
 * snapshots' difference is what a run cost.
 */
export function cpuSnapshot(
  processes: Record<string, number>,
  trees: Record<string, number> = {},
): Record<string, number> {
  const usage = process.cpuUsage();
  return {
    ...Object.fromEntries(Object.entries(processes).map(([name, pid]) => [name, cpuMillis(pid)])),
    ...Object.fromEntries(Object.entries(trees).map(([name, pid]) => [name, treeCpuMillis(pid)])),
    generator: (usage.user + usage.system) / 1000,
    machine: machineBusyMillis(),
  };
}

/** CPU milliseconds per unit of work between two snapshots, by name. */
export const cpuPer = (
  before: Record<string, number>,
  after: Record<string, number>,
  units: number,
) =>
  Object.fromEntries(
    Object.keys(after).map((name) => [name, (after[name]! - before[name]!) / units]),
  );

const graphqlOk = (status: number, body: string) =>
  status === 200 && !body.includes('"errors"') && !body.includes('"success":false');

function send(agent: Agent, target: LoadTarget): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      target.url,
      {
        method: 'POST',
        agent,
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(target.body),
          ...target.headers,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(target.body);
  });
}

/**
 * Sends `requests` requests (or for `seconds`, whichever is given) over `connections`
 * keep-alive connections; `warmUp` requests first, not counted.
 */
export async function runLoad(
  target: LoadTarget,
  options: {
    connections: number;
    requests?: number;
    seconds?: number;
    warmUp?: number;
    /** Processes whose CPU time is read before and after (name -> pid). */
    watch?: Record<string, number>;
    /** The same for a process with its descendants (name -> pid of the root). */
    watchTrees?: Record<string, number>;
  },
): Promise<LoadResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: options.connections });
  const ok = target.ok ?? graphqlOk;
  try {
    const warm = options.warmUp ?? options.connections * 5;
    let warmed = 0;
    await Promise.all(
      Array.from({ length: options.connections }, async () => {
        while (warmed < warm) {
          warmed += 1;
          await send(agent, target).catch(() => undefined);
        }
      }),
    );
    const cpuBefore = cpuSnapshot(options.watch ?? {}, options.watchTrees);
    const times: number[] = [];
    let errors = 0;
    let firstError: string | null = null;
    let started = 0;
    const began = performance.now();
    const deadline = options.seconds ? began + options.seconds * 1000 : Infinity;
    const limit = options.requests ?? Infinity;
    await Promise.all(
      Array.from({ length: options.connections }, async () => {
        while (started < limit && performance.now() < deadline) {
          started += 1;
          const t = performance.now();
          try {
            const answer = await send(agent, target);
            if (!ok(answer.status, answer.body)) {
              errors += 1;
              firstError ??= `HTTP ${answer.status}: ${answer.body.slice(0, 300)}`;
            }
          } catch (error) {
            errors += 1;
            firstError ??= String(error);
          }
          times.push(performance.now() - t);
        }
      }),
    );
    const seconds = (performance.now() - began) / 1000;
    const cpuPerRequest = cpuPer(
      cpuBefore,
      cpuSnapshot(options.watch ?? {}, options.watchTrees),
      times.length,
    );
    const { p50, p95, p99 } = percentiles(times);
    return {
      requests: times.length,
      errors,
      seconds,
      perSecond: times.length / seconds,
      p50,
      p95,
      p99,
      cpuPerRequest,
      firstError,
    };
  } finally {
    agent.destroy();
  }
}
