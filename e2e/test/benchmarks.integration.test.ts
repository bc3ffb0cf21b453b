/**
 * Benchmarks that cannot rot (issue 21): every benchmark of `npm run bench` runs here at
 * BENCH_SIZE=tiny, so that a changed event, schema, limit or API breaks this test rather than a
 * benchmark nobody ran. It asserts only that each runs to its end, prints its tables and writes
 * its JSON (machine, commit, the previous run beside it); never a figure or a time.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { env as scriptEnv } from '../../scripts/lib/stack-config.mjs';
import type { BenchResults } from '../bench/lib/results.ts';

const e2eDir = path.resolve(import.meta.dirname, '..');
const benchDir = path.join(e2eDir, 'bench');
const resultsDir = mkdtempSync(path.join(os.tmpdir(), 'bench-tiny-'));
afterAll(() => rmSync(resultsDir, { recursive: true, force: true }));

const benchmarks = readdirSync(benchDir)
  .filter((name) => name.endsWith('.bench.ts'))
  .map((name) => name.slice(0, -'.bench.ts'.length));

function runTiny(name: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', path.join(benchDir, `${name}.bench.ts`)],
      {
        cwd: e2eDir,
        env: {
          ...scriptEnv,
          BENCH_SIZE: 'tiny',
          BENCH_RESULTS_DIR: resultsDir,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

describe('every benchmark, at a tiny size', () => {
  it('finds the benchmarks', () => {
    expect(benchmarks).toEqual(
      expect.arrayContaining(['gateway', 'media', 'memory', 'money', 'slice', 'social', 'upload']),
    );
  });

  it.each(benchmarks)(
    '%s runs to its end, prints its tables and writes its results beside the previous run',
    async (name) => {
      const file = path.join(resultsDir, `${name}.json`);
      const previousStart = '2000-01-01T00:00:00.000Z';
      writeFileSync(file, JSON.stringify({ name, startedAt: previousStart, previous: null }));
      const { code, output } = await runTiny(name);
      expect(code, output.slice(-3_000)).toBe(0);
      const results = JSON.parse(readFileSync(file, 'utf8')) as BenchResults;
      expect(results).toMatchObject({ name, size: 'tiny' });
      expect(results.machine.cpus).toBeGreaterThan(0);
      expect(results.machine.loadAverageStart).toHaveLength(3);
      expect(results.commit.sha).toMatch(/^[0-9a-f]{40}$/);
      expect(results.previous?.startedAt).toBe(previousStart);
      expect(results.tables.length).toBeGreaterThan(0);
      for (const table of results.tables) {
        expect(table.rows.length, table.title).toBeGreaterThan(0);
        expect(output).toContain(table.title);
      }
    },
    900_000,
  );
});
