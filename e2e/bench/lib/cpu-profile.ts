/**
 * Reads a V8 CPU profile (`node --cpu-prof` writes one per process at exit; open it in Chrome's
 * DevTools or speedscope.app for the flame graph) into its top items: self time per function and
 * per package, as shares of the samples taken while the process was busy.
 */
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  /** Microseconds of the monotonic clock (process.hrtime's) of the first sample. */
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

export interface ProfileSummary {
  /** Milliseconds sampled outside the idle loop. */
  busyMs: number;
  functions: { name: string; where: string; selfMs: number; share: number }[];
  /** By total time: the function's own samples and those of everything it called. */
  totals: { name: string; where: string; selfMs: number; share: number }[];
  packages: { name: string; selfMs: number; share: number }[];
}

const IDLE = new Set(['(idle)', '(program)', '(root)']);

/** `node_modules/@apollo/gateway/dist/x.js` -> `@apollo/gateway`; our bundle -> `dist (ours)`. */
function packageOf(url: string, name: string): string {
  if (name === '(garbage collector)') return '(garbage collector)';
  const modules = url.lastIndexOf('node_modules/');
  if (modules >= 0) {
    const parts = url.slice(modules + 'node_modules/'.length).split('/');
    return parts[0]!.startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0]!;
  }
  if (url.startsWith('node:') || url === '') return 'node (built in)';
  return 'ours';
}

const shorten = (url: string) =>
  url.replace(/^.*node_modules\//, '').replace(/^file:\/\/.*\/(dist|src)\//, '$1/');

/** A stretch of the monotonic clock in microseconds (`process.hrtime.bigint() / 1000n`). */
export type Window = readonly [start: number, end: number];

/** Now on the clock of a profile's timestamps, in microseconds. */
export const monotonicMicros = (): number => Number(process.hrtime.bigint() / 1000n);

/**
 * The top items of a profile. With `windows`, only the samples taken within them count (the load,
 * not the start-up and sign-ups around it).
 */
export function summariseProfile(
  file: string,
  windows: readonly Window[] = [],
  top = 15,
): ProfileSummary {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const selfMicros = new Map<number, number>();
  // A sample's delta is wall-clock time since the previous one: on a busy shared machine a
  // process that was not scheduled for seconds charges them all to one function. Each sample
  // counts for at most four typical intervals.
  const sorted = [...profile.timeDeltas].sort((a, b) => a - b);
  const cap = 4 * (sorted[Math.floor(sorted.length / 2)] ?? 1000);
  let at = profile.startTime;
  profile.samples.forEach((id, i) => {
    const delta = profile.timeDeltas[i] ?? 0;
    at += delta;
    if (windows.length && !windows.some(([start, end]) => at >= start && at <= end)) return;
    selfMicros.set(id, (selfMicros.get(id) ?? 0) + Math.min(delta, cap));
  });
  const functions = new Map<string, { name: string; where: string; micros: number }>();
  const packages = new Map<string, number>();
  let busy = 0;
  for (const [id, micros] of selfMicros) {
    const { functionName, url, lineNumber } = byId.get(id)!.callFrame;
    const name = functionName || '(anonymous)';
    if (IDLE.has(name)) continue;
    busy += micros;
    const where = url ? `${shorten(url)}:${lineNumber + 1}` : '';
    const key = `${name}|${where}`;
    const entry = functions.get(key) ?? { name, where, micros: 0 };
    entry.micros += micros;
    functions.set(key, entry);
    const pkg = packageOf(url, name);
    packages.set(pkg, (packages.get(pkg) ?? 0) + micros);
  }
  const share = (micros: number) => (busy ? (100 * micros) / busy : 0);
  // Total time: each busy sample counts once for every distinct function on its stack.
  const parentOf = new Map<number, number>();
  for (const node of profile.nodes)
    for (const child of node.children ?? []) parentOf.set(child, node.id);
  const totals = new Map<string, { name: string; where: string; micros: number }>();
  for (const [id, micros] of selfMicros) {
    if (IDLE.has(byId.get(id)!.callFrame.functionName)) continue;
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parentOf.get(at)) {
      const { functionName, url, lineNumber } = byId.get(at)!.callFrame;
      const name = functionName || '(anonymous)';
      if (IDLE.has(name)) continue;
      const where = url ? `${shorten(url)}:${lineNumber + 1}` : '';
      const key = `${name}|${where}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const entry = totals.get(key) ?? { name, where, micros: 0 };
      entry.micros += micros;
      totals.set(key, entry);
    }
  }
  return {
    busyMs: busy / 1000,
    functions: [...functions.values()]
      .sort((a, b) => b.micros - a.micros)
      .slice(0, top)
      .map((f) => ({
        name: f.name,
        where: f.where,
        selfMs: f.micros / 1000,
        share: share(f.micros),
      })),
    totals: [...totals.values()]
      .sort((a, b) => b.micros - a.micros)
      .slice(0, top)
      .map((f) => ({
        name: f.name,
        where: f.where,
        selfMs: f.micros / 1000,
        share: share(f.micros),
      })),
    packages: [...packages]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 10)
      .map(([name, micros]) => ({ name, selfMs: micros / 1000, share: share(micros) })),
  };
}
