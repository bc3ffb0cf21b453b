import type { Express, Request } from 'express';
import type { Lifecycle } from './lifecycle.ts';
import type { Metrics } from './metrics.ts';

/** Named readiness probes: a database, Redis, Kafka. Each throws when its dependency is down. */
export type ReadinessChecks = Record<string, () => Promise<void>>;

const CHECK_TIMEOUT_MS = 2_000;

async function runCheck(check: () => Promise<void>): Promise<string> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      check(),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error('timed out')), CHECK_TIMEOUT_MS);
      }),
    ]);
    return 'ok';
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * /healthz: the process is alive. /readyz: it can serve (dependencies reachable, not stopping),
 * with the result of each check for whom `showChecks` allows (everyone by default: a subgraph's
 * port is not public; the gateway's is, and tells the internet the status only).
 */
export function mountOperationalEndpoints(
  app: Express,
  options: {
    checks: ReadinessChecks;
    lifecycle: Lifecycle;
    metrics: Metrics;
    showChecks?: (req: Request) => boolean;
  },
): void {
  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  app.get('/readyz', async (req, res) => {
    if (options.lifecycle.stopping) {
      res.status(503).json({ status: 'stopping' });
      return;
    }
    const names = Object.keys(options.checks);
    const results = await Promise.all(names.map((name) => runCheck(options.checks[name]!)));
    const checks = Object.fromEntries(names.map((name, i) => [name, results[i]]));
    const ready = results.every((result) => result === 'ok');
    const status = ready ? 'ready' : 'not_ready';
    const details = options.showChecks?.(req) ?? true;
    res.status(ready ? 200 : 503).json(details ? { status, checks } : { status });
  });
  app.get('/metrics', async (_req, res) => {
    res.type(options.metrics.registry.contentType).send(await options.metrics.registry.metrics());
  });
}
