/**
 * What every benchmark does with its figures (issue 21): print them as tables and write them as
 * JSON to e2e/bench-results/<name>.json with the machine they were measured on, the commit (and
 * the "before" commit of a side-by-side run) and the previous run of the same benchmark beside
 * them, so that a figure is never read without its circumstances.
 *
 * At BENCH_SIZE=tiny (the benchmarks test in `npm test`) the JSON goes to BENCH_RESULTS_DIR or
 * e2e/test-results/bench-tiny: a tiny run proves the benchmark still runs, its figures mean
 * nothing and never replace a real run's.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { env } from '../../src/env.ts';

const e2eDir = path.resolve(import.meta.dirname, '..', '..');
const repoRoot = path.resolve(e2eDir, '..');

export type Cell = string | number | null;

export interface Table {
  title: string;
  columns: string[];
  rows: Cell[][];
  /** Lines printed under the table (targets, what a figure means). */
  notes?: string[];
}

export interface Machine {
  cpus: number;
  cpuModel: string;
  memoryGiB: number;
  os: string;
  node: string;
  /** 1, 5 and 15 minute load averages when the run started and when it ended. */
  loadAverageStart: number[];
  loadAverageEnd: number[];
}

export interface Commit {
  sha: string;
  /** Uncommitted changes in the checkout that ran. */
  dirty: boolean;
  checkout: string;
}

export interface BenchResults {
  name: string;
  size: 'full' | 'tiny';
  startedAt: string;
  seconds: number;
  machine: Machine;
  commit: Commit;
  /** The checkout the "before" side ran (side-by-side benchmarks), if any. */
  beforeCommit: Commit | null;
  tables: Table[];
  previous: Omit<BenchResults, 'previous'> | null;
}

export const benchSize = env.benchSize;
export const tiny = benchSize === 'tiny';

/** `full` at `npm run bench`, `tiny` in the benchmarks test. */
export const sized = <T>(full: T, tinyValue: T): T => (tiny ? tinyValue : full);

const loadAverage = () => os.loadavg().map((value) => Math.round(value * 10) / 10);

export function commitOf(checkout: string): Commit {
  const git = (...args: string[]) =>
    spawnSync('git', ['-C', checkout, ...args], { encoding: 'utf8' }).stdout.trim();
  return {
    sha: git('rev-parse', 'HEAD') || 'unknown',
    dirty: git('status', '--porcelain', '--untracked-files=no') !== '',
    checkout: path.relative(repoRoot, checkout) || '.',
  };
}

export const resultsDir = (): string =>
  env.benchResultsDir ??
  (tiny ? path.join(e2eDir, 'test-results', 'bench-tiny') : path.join(e2eDir, 'bench-results'));

const format = (cell: Cell): string => {
  if (cell === null) return '-';
  if (typeof cell === 'string') return cell;
  if (Number.isInteger(cell)) return String(cell);
  return Math.abs(cell) >= 100
    ? cell.toFixed(0)
    : Math.abs(cell) >= 10
      ? cell.toFixed(1)
      : cell.toFixed(2);
};

/** The table as aligned text: a title, a header, a rule, the rows, then its notes. */
export function renderTable(table: Table): string {
  const cells = [table.columns, ...table.rows.map((row) => row.map(format))];
  const widths = table.columns.map((_, i) =>
    Math.max(...cells.map((row) => (row[i] ?? '').length)),
  );
  const line = (row: string[]) =>
    row
      .map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!)))
      .join(' | ');
  return [
    `\n${table.title}`,
    line(table.columns),
    widths.map((width) => '-'.repeat(width)).join('-|-'),
    ...cells.slice(1).map(line),
    ...(table.notes ?? []).map((note) => `  ${note}`),
  ].join('\n');
}

/**
 * One benchmark's run: `table()` prints a table as soon as it is measured, `finish()` writes the
 * JSON (with the previous run's figures beside the new ones) and prints where.
 */
export function startBench(name: string, options: { beforeCheckout?: string } = {}) {
  const startedAt = new Date();
  const loadAverageStart = loadAverage();
  const tables: Table[] = [];
  console.log(
    `${name} benchmark, size ${benchSize}; ${os.cpus().length} cores, load average ${loadAverageStart.join(' ')}` +
      (tiny ? ' (tiny: proves it runs; the figures mean nothing)' : ''),
  );
  return {
    table(table: Table) {
      tables.push(table);
      console.log(renderTable(table));
    },
    finish(): { file: string; results: BenchResults } {
      const cpus = os.cpus();
      const file = path.join(resultsDir(), `${name}.json`);
      let previous: BenchResults['previous'] = null;
      if (existsSync(file)) {
        try {
          const { previous: _older, ...last } = JSON.parse(
            readFileSync(file, 'utf8'),
          ) as BenchResults;
          previous = last;
        } catch {
          previous = null; // an unreadable file is replaced
        }
      }
      const results: BenchResults = {
        name,
        size: benchSize,
        startedAt: startedAt.toISOString(),
        seconds: Math.round((Date.now() - startedAt.getTime()) / 100) / 10,
        machine: {
          cpus: cpus.length,
          cpuModel: cpus[0]?.model.trim() ?? 'unknown',
          memoryGiB: Math.round(os.totalmem() / 2 ** 30),
          os: `${os.type()} ${os.release()} ${os.arch()}`,
          node: process.version,
          loadAverageStart,
          loadAverageEnd: loadAverage(),
        },
        commit: commitOf(repoRoot),
        beforeCommit: options.beforeCheckout ? commitOf(options.beforeCheckout) : null,
        tables,
        previous,
      };
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
      console.log(
        `\n${name}: ${results.seconds} s, load average ${results.machine.loadAverageEnd.join(' ')} at the end; ` +
          `results in ${path.relative(process.cwd(), file)}` +
          (previous
            ? ` (previous run ${previous.startedAt}, ${previous.commit?.sha?.slice(0, 10) ?? 'unknown commit'}, beside it)`
            : ''),
      );
      return { file, results };
    },
  };
}

/** Percentiles of a list of times (ms), nearest rank. */
export function percentiles(times: number[]) {
  const sorted = [...times].sort((a, b) => a - b);
  const at = (p: number) =>
    sorted.length
      ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!
      : NaN;
  return { p50: at(50), p95: at(95), p99: at(99), max: sorted.at(-1) ?? NaN };
}

/** The median of a few repetitions' figures. */
export function median(values: number[]): number {
  const sorted = values.filter(Number.isFinite).sort((a, b) => a - b);
  if (!sorted.length) return NaN;
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}
