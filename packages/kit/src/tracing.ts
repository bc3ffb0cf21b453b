import {
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  context,
  propagation,
  trace,
  type Attributes,
  type Context,
  type Span,
  type TextMapGetter,
  type Tracer,
} from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  BatchSpanProcessor,
  NodeTracerProvider,
  ParentBasedSampler,
  TraceIdRatioBasedSampler,
  type Sampler,
  type SpanProcessor,
} from '@opentelemetry/sdk-trace-node';
import type { ApolloServerPlugin } from '@apollo/server';
import type { RequestHandler } from 'express';

/**
 * Traces (docs/adr/0080), instrumented by hand rather than by OpenTelemetry's auto-instrumentation:
 * that patches modules through require/import hooks, which a bundle (docs/adr/0078) bypasses for
 * our own code and which cost at every module load. Each process registers one tracer provider
 * at start when OTEL_EXPORTER_OTLP_ENDPOINT is set; without it nothing is registered, every
 * helper here returns at its first check, and the API's tracers are no-ops.
 */

export type { Span, Tracer };
export { SpanKind, SpanStatusCode };

export interface TracingEnv {
  /** Base URL of an OTLP/HTTP receiver (a collector); spans go to <base>/v1/traces. */
  OTEL_EXPORTER_OTLP_ENDPOINT?: string;
  /** Share of traces kept, 0 to 1, decided once per trace id. */
  OTEL_TRACES_SAMPLE_RATIO: number;
}

export interface Tracing {
  readonly enabled: boolean;
  /** Exports what is buffered and stops; registered on the lifecycle so it runs last. */
  shutdown(): Promise<void>;
}

let enabled = false;

/** Whether this process records spans: the helpers below do nothing otherwise. */
export const tracingEnabled = (): boolean => enabled;

/** The tracer of one service: its name is the span's instrumentation scope. */
export const tracerFor = (service: string): Tracer => trace.getTracer(service);

export interface TracingOptions {
  service: string;
  spanProcessors: SpanProcessor[];
  sampleRatio?: number;
  /**
   * The public edge (the gateway): a browser's `traceparent` gives the trace id, but whether the
   * trace is kept is decided here by that id, never by the flag a client sent.
   */
  edge?: boolean;
}

/** Registers the process-wide tracer provider, W3C propagation and async context. */
export function registerTracing(options: TracingOptions): Tracing {
  const ratio = new TraceIdRatioBasedSampler(options.sampleRatio ?? 1);
  const sampler: Sampler = options.edge ? ratio : new ParentBasedSampler({ root: ratio });
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({
      'service.name': options.service,
      'service.namespace': 'challenge-platform',
    }),
    sampler,
    spanProcessors: options.spanProcessors,
  });
  provider.register();
  enabled = true;
  return {
    enabled: true,
    async shutdown() {
      await provider.shutdown();
      enabled = false;
      trace.disable();
      propagation.disable();
      context.disable();
    },
  };
}

/** From the environment: off (no provider, no cost) unless an OTLP endpoint is configured. */
export function startTracing(service: string, env: TracingEnv, edge = false): Tracing {
  const endpoint = env.OTEL_EXPORTER_OTLP_ENDPOINT;
  if (!endpoint) return { enabled: false, shutdown: async () => undefined };
  const url = new URL('v1/traces', endpoint.endsWith('/') ? endpoint : `${endpoint}/`).href;
  return registerTracing({
    service,
    spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter({ url }))],
    sampleRatio: env.OTEL_TRACES_SAMPLE_RATIO,
    edge,
  });
}

type HeaderValue = string | string[] | Buffer | (string | Buffer)[] | undefined;
const headerGetter: TextMapGetter<Record<string, HeaderValue>> = {
  keys: (carrier) => Object.keys(carrier),
  get(carrier, key) {
    const value = carrier[key];
    if (value === undefined) return undefined;
    if (Array.isArray(value)) return value.map(String);
    return String(value);
  },
};

/**
 * The trace context of `ctx` as W3C headers (`traceparent`, `tracestate`): for HTTP requests,
 * Kafka messages, the outbox row and job data. Empty when tracing is off.
 */
export function traceHeaders(ctx: Context = context.active()): Record<string, string> {
  const carrier: Record<string, string> = {};
  if (enabled) propagation.inject(ctx, carrier);
  return carrier;
}

/** The context carried by headers such as `traceHeaders` wrote (HTTP, Kafka, stored JSON). */
export function contextFromHeaders(
  headers: Record<string, HeaderValue> | null | undefined,
): Context {
  if (!enabled || !headers) return ROOT_CONTEXT;
  return propagation.extract(ROOT_CONTEXT, headers, headerGetter);
}

/**
 * Runs `work` in a new span (ended when it settles; a throw marks it failed), or just runs it
 * when tracing is off.
 */
export async function inSpan<T>(
  tracer: Tracer,
  name: string,
  options: { kind?: SpanKind; attributes?: Attributes; parent?: Context },
  work: (span: Span | null) => Promise<T>,
): Promise<T> {
  if (!enabled) return work(null);
  const parent = options.parent ?? context.active();
  const span = tracer.startSpan(
    name,
    { kind: options.kind, attributes: options.attributes },
    parent,
  );
  try {
    return await context.with(trace.setSpan(parent, span), () => work(span));
  } catch (error) {
    failSpan(span, error);
    throw error;
  } finally {
    span.end();
  }
}

export function failSpan(span: Span, error: unknown): void {
  span.recordException(error instanceof Error ? error : String(error));
  span.setStatus({ code: SpanStatusCode.ERROR });
}

/** Paths of the probes and the scraper: not worth a trace each. */
const UNTRACED_PATHS = new Set(['/healthz', '/readyz', '/metrics']);

/**
 * One SERVER span per HTTP request, continuing the caller's trace (`traceparent`), active while
 * the request is handled. Its name is the method and the route Express matched, or the path of a
 * known endpoint; never a raw path or query, which may carry ids or a link's secret.
 */
export function httpServerSpans(tracer: Tracer, knownPaths: readonly string[]): RequestHandler {
  const known = new Set(knownPaths);
  return (req, res, next) => {
    if (!enabled || UNTRACED_PATHS.has(req.path)) return next();
    const parent = contextFromHeaders(req.headers);
    const path = req.path;
    const span = tracer.startSpan(
      `${req.method} ${known.has(path) ? path : ''}`.trim(),
      { kind: SpanKind.SERVER, attributes: { 'http.request.method': req.method } },
      parent,
    );
    res.once('close', () => {
      const route = req.route?.path as string | undefined;
      if (route) {
        const full = `${req.baseUrl}${route}`;
        span.setAttribute('http.route', full);
        if (!known.has(path)) span.updateName(`${req.method} ${full}`);
      } else if (known.has(path)) span.setAttribute('http.route', path);
      span.setAttribute('http.response.status_code', res.statusCode);
      if (res.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      if (!res.writableFinished) span.setAttribute('http.aborted', true);
      span.end();
    });
    context.with(trace.setSpan(parent, span), next);
  };
}

/**
 * Names the request's span after the GraphQL operation (`query getWallet`) and marks it failed
 * when an unexpected error was masked. The document and variables are never recorded: they may
 * hold personal data.
 */
export function graphqlSpanPlugin(): ApolloServerPlugin {
  return {
    async requestDidStart() {
      if (!enabled) return;
      const span = trace.getActiveSpan();
      if (!span) return;
      return {
        async didResolveOperation({ operationName, operation }) {
          const name = operationName ?? 'anonymous';
          const type = operation?.operation ?? 'query';
          span.setAttributes({ 'graphql.operation.name': name, 'graphql.operation.type': type });
          span.updateName(`${type} ${name}`);
        },
        async willSendResponse({ errors }) {
          const internal = errors?.some(
            (error) =>
              error.extensions?.code === undefined ||
              error.extensions.code === 'INTERNAL_SERVER_ERROR',
          );
          if (internal) span.setStatus({ code: SpanStatusCode.ERROR });
        },
      };
    },
  };
}

/** A CLIENT span around an outgoing HTTP call; `work` gets the headers that continue the trace. */
export function inClientSpan<T>(
  tracer: Tracer,
  name: string,
  attributes: Attributes,
  work: (headers: Record<string, string>) => Promise<T>,
): Promise<T> {
  if (!enabled) return work({});
  return inSpan(tracer, name, { kind: SpanKind.CLIENT, attributes }, () => work(traceHeaders()));
}

interface SqlQueryLike {
  sql: string;
}

const FIRST_WORD = /^\s*(?:\/\*.*?\*\/\s*)?([A-Za-z]+)/s;
const TARGET = /\b(?:FROM|INTO|UPDATE|JOIN)\s+((?:"[^"]+"\.)?"[^"]+"|[a-z_][a-z0-9_.]*)/i;

/** `SELECT wallets`: the statement and its first table, a low-cardinality span name. */
export function sqlSummary(sql: string): { operation: string; name: string } {
  const operation = (FIRST_WORD.exec(sql)?.[1] ?? 'SQL').toUpperCase();
  const target = TARGET.exec(sql)?.[1]
    ?.replaceAll('"', '')
    .replace(/^public\./, '');
  return { operation, name: target ? `${operation} ${target}` : operation };
}

/**
 * Wraps a Prisma driver adapter factory (`new PrismaPg(...)`) so that every statement it runs,
 * inside transactions too, is a CLIENT span under the caller's: Prisma's client runs each query
 * in its caller's async context. Statements outside any span are not traced. The SQL text is recorded (Prisma's and ours are parameterised);
 * argument values never are. Without tracing the factory is returned as it is.
 */
export function traceSqlAdapter<T extends object>(factory: T, connectionString: string): T {
  if (!enabled) return factory;
  const tracer = trace.getTracer('postgresql');
  const database = decodeURIComponent(new URL(connectionString).pathname.slice(1));
  const statement = <R>(sql: string, run: () => Promise<R>) => {
    // Only inside a request, an event or a job: the outbox relay's polls and other background
    // loops would otherwise start a trace of their own several times a second.
    if (!trace.getSpan(context.active())) return run();
    const { operation, name } = sqlSummary(sql);
    return inSpan(
      tracer,
      name,
      {
        kind: SpanKind.CLIENT,
        attributes: {
          'db.system.name': 'postgresql',
          'db.namespace': database,
          'db.operation.name': operation,
          'db.query.text': sql.length > 2000 ? `${sql.slice(0, 2000)}…` : sql,
        },
      },
      run,
    );
  };
  const wrap = <O extends object>(target: O): O =>
    new Proxy(target, {
      get(object, property) {
        const value: unknown = Reflect.get(object, property, object);
        if (typeof value !== 'function') return value;
        const method = value as (...args: unknown[]) => unknown;
        switch (property) {
          case 'queryRaw':
          case 'executeRaw':
            return (query: SqlQueryLike) =>
              statement(query.sql, async () => method.call(object, query));
          case 'commit':
          case 'rollback':
            return () => statement(property.toUpperCase(), async () => method.call(object));
          case 'connect':
          case 'connectToShadowDb':
          case 'startTransaction':
            return async (...args: unknown[]) => wrap((await method.apply(object, args)) as object);
          default:
            return method.bind(object);
        }
      },
    });
  return wrap(factory);
}
