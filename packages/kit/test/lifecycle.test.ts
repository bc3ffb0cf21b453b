import { describe, expect, it, vi } from 'vitest';
import { createLifecycle } from '../src/lifecycle.ts';
import { captureLogger, deferred, eventually } from './support.ts';

describe('lifecycle', () => {
  it('runs the stop hooks in reverse order of registration, one after the other', async () => {
    const { logger } = captureLogger();
    const lifecycle = createLifecycle(logger, 1_000);
    const events: string[] = [];
    for (const name of ['redis', 'consumer', 'http']) {
      lifecycle.onStop(name, async () => {
        events.push(`${name}:start`);
        await new Promise((resolve) => setTimeout(resolve, 5));
        events.push(`${name}:end`);
      });
    }
    expect(lifecycle.stopping).toBe(false);
    await lifecycle.stop('test');
    expect(events).toEqual([
      'http:start',
      'http:end',
      'consumer:start',
      'consumer:end',
      'redis:start',
      'redis:end',
    ]);
    expect(lifecycle.stopping).toBe(true);
  });

  it('abandons a hook that hangs after the timeout and still runs the next one', async () => {
    const log = captureLogger();
    const lifecycle = createLifecycle(log.logger, 100);
    const ran: string[] = [];
    lifecycle.onStop('last', () => void ran.push('last'));
    lifecycle.onStop('stuck', () => new Promise<void>(() => {}));
    const started = Date.now();
    await lifecycle.stop('test');
    const elapsed = Date.now() - started;
    expect(ran).toEqual(['last']);
    expect(elapsed).toBeGreaterThanOrEqual(95);
    expect(elapsed).toBeLessThan(2_000);
    const failure = log.entries().find((entry) => entry.hook === 'stuck');
    expect(failure).toMatchObject({ level: 50, msg: 'stop hook failed' });
    expect(JSON.stringify(failure)).toContain('timed out after 100 ms');
  });

  it('runs the next hook after one that throws (sync or async)', async () => {
    const { logger } = captureLogger();
    const lifecycle = createLifecycle(logger, 1_000);
    const ran: string[] = [];
    lifecycle.onStop('first', () => void ran.push('first'));
    lifecycle.onStop('async-throw', async () => {
      throw new Error('async');
    });
    lifecycle.onStop('sync-throw', () => {
      throw new Error('sync');
    });
    await expect(lifecycle.stop('test')).resolves.toBeUndefined();
    expect(ran).toEqual(['first']);
  });

  it('runs the hooks once when stop is called twice, also while the first stop is in progress', async () => {
    const { logger } = captureLogger();
    const lifecycle = createLifecycle(logger, 1_000);
    const gate = deferred();
    let calls = 0;
    lifecycle.onStop('counted', async () => {
      calls += 1;
      await gate.promise;
    });
    const first = lifecycle.stop('SIGTERM');
    const second = lifecycle.stop('SIGINT');
    expect(lifecycle.stopping).toBe(true);
    gate.resolve();
    await Promise.all([first, second]);
    await lifecycle.stop('again');
    expect(calls).toBe(1);
  });

  it('marks itself stopping as soon as stop begins, before the hooks finish', async () => {
    const { logger } = captureLogger();
    const lifecycle = createLifecycle(logger, 1_000);
    const gate = deferred();
    let seen: boolean | null = null;
    lifecycle.onStop('probe', async () => {
      seen = lifecycle.stopping;
      await gate.promise;
    });
    const stopping = lifecycle.stop('test');
    expect(lifecycle.stopping).toBe(true);
    gate.resolve();
    await stopping;
    expect(seen).toBe(true);
  });

  it('stops on SIGTERM and exits 0 once the hooks are done', async () => {
    const log = captureLogger();
    const lifecycle = createLifecycle(log.logger, 1_000);
    const order: string[] = [];
    const exit = vi
      .spyOn(process, 'exit')
      .mockImplementation(((code?: number) => void order.push(`exit ${code}`)) as never);
    const before = new Set([...process.listeners('SIGTERM'), ...process.listeners('SIGINT')]);
    try {
      lifecycle.installSignalHandlers();
      lifecycle.onStop('server', async () => {
        await new Promise((resolve) => setTimeout(resolve, 20));
        order.push('server stopped');
      });
      process.emit('SIGTERM');
      await eventually(() => expect(exit).toHaveBeenCalled());
      expect(order).toEqual(['server stopped', 'exit 0']);
      expect(log.entries().some((entry) => entry.reason === 'SIGTERM')).toBe(true);
    } finally {
      exit.mockRestore();
      for (const signal of ['SIGTERM', 'SIGINT'] as const) {
        for (const listener of process.listeners(signal))
          if (!before.has(listener)) process.removeListener(signal, listener);
      }
    }
  });
});
