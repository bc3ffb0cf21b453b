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
  samples: number[];
  timeDeltas: number[];
}

export interface ProfileSummary {
  /** Milliseconds sampled outside the idle loop. */
  busyMs: number;
  functions: { name: string; where: string; selfMs: number; share: number }[];
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

export function summariseProfile(file: string, top = 15): ProfileSummary {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const selfMicros = new Map<number, number>();
  profile.samples.forEach((id, i) => {
    selfMicros.set(id, (selfMicros.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
  });
  const functions = new Map<string, { name: string; where: string; micros: number }>();
  const packages = new Map<string, number>();
  let busy = 0;
  for (const [id, micros] of selfMicros) {
    const { functionName, url, lineNumber } = byId.get(id)!.callFrame;
    const name = functionName || '(anonymous)';
    if (IDLE.has(name)) continue;
    busy += micros;
    const short = url.replace(/^.*node_modules\//, '').replace(/^file:\/\/.*\/(dist|src)\//, '$1/');
    const where = url ? `${short}:${lineNumber + 1}` : '';
    const key = `${name}|${where}`;
    const entry = functions.get(key) ?? { name, where, micros: 0 };
    entry.micros += micros;
    functions.set(key, entry);
    const pkg = packageOf(url, name);
    packages.set(pkg, (packages.get(pkg) ?? 0) + micros);
  }
  const share = (micros: number) => (busy ? (100 * micros) / busy : 0);
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
    packages: [...packages]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 10)
      .map(([name, micros]) => ({ name, selfMs: micros / 1000, share: share(micros) })),
  };
}
