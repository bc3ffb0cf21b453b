import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { RequestHandler } from 'express';

/** One registry per app, so that several apps can live in one test process. */
export interface Metrics {
  registry: Registry;
  graphqlOperations: Counter<'operation' | 'outcome'>;
  middleware: RequestHandler;
}

export function createMetrics(service: string): Metrics {
  const registry = new Registry();
  registry.setDefaultLabels({ service });
  collectDefaultMetrics({ register: registry });
  const httpDuration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request duration by route and status code',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });
  const graphqlOperations = new Counter({
    name: 'graphql_operations_total',
    help: 'GraphQL operations by name and outcome',
    labelNames: ['operation', 'outcome'] as const,
    registers: [registry],
  });
  const middleware: RequestHandler = (req, res, next) => {
    const path = req.path; // read now: a mounted router strips its mount path later
    const end = httpDuration.startTimer({ method: req.method });
    res.on('finish', () => {
      // Only known paths as labels: arbitrary URLs would explode the series count.
      const route = ['/graphql', '/healthz', '/readyz', '/metrics'].includes(path) ? path : 'other';
      end({ route, status: String(res.statusCode) });
    });
    next();
  };
  return { registry, graphqlOperations, middleware };
}
