import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { parseEnv, subgraphEnv } from '../src/config.ts';
import {
  sqlSummary,
  startTracing,
  traceHeaders,
  tracerFor,
  tracingEnabled,
  type Tracing,
} from '../src/tracing.ts';

/** An OTLP/HTTP receiver: what an OpenTelemetry collector listens to on :4318. */
async function receiver() {
  const requests: { path: string; type: string; body: unknown }[] = [];
  const server = createServer((req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      requests.push({
        path: req.url ?? '',
        type: req.headers['content-type'] ?? '',
        body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown,
      });
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('tracing from the environment', () => {
  let tracing: Tracing | undefined;
  afterEach(async () => {
    await tracing?.shutdown();
    tracing = undefined;
  });

  it('is off without an endpoint: nothing registered, no headers, no-op spans', () => {
    tracing = startTracing('wallet', { OTEL_TRACES_SAMPLE_RATIO: 1 });
    expect(tracing.enabled).toBe(false);
    expect(tracingEnabled()).toBe(false);
    expect(traceHeaders()).toEqual({});
    const span = tracerFor('wallet').startSpan('nothing');
    expect(span.isRecording()).toBe(false);
    span.end();
  });

  it('exports spans as OTLP/HTTP JSON to <endpoint>/v1/traces, named after the service', async () => {
    const collector = await receiver();
    try {
      tracing = startTracing('wallet', {
        OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
        OTEL_TRACES_SAMPLE_RATIO: 1,
      });
      const tracer = tracerFor('wallet');
      const span = tracer.startSpan('POST /internal/escrow/holds');
      span.end();
      await tracing.shutdown(); // flushes the batch
      tracing = undefined;
      expect(collector.requests).toHaveLength(1);
      const [request] = collector.requests;
      expect(request!.path).toBe('/v1/traces');
      expect(request!.type).toContain('application/json');
      const text = JSON.stringify(request!.body);
      expect(text).toContain('"service.name","value":{"stringValue":"wallet"}');
      expect(text).toContain('"name":"POST /internal/escrow/holds"');
    } finally {
      await collector.close();
    }
  });

  it('reads and checks the variables in every env module (they all extend baseEnv)', () => {
    const base = {
      PORT: '4703',
      DATABASE_URL: 'postgresql://u:p@localhost:5432/wallet',
      REDIS_URL: 'redis://localhost:6379',
      KAFKA_BROKERS: 'localhost:9092',
      JWT_PUBLIC_KEY: '-----BEGIN PUBLIC KEY-----\nx\n-----END PUBLIC KEY-----',
      GATEWAY_SECRET: 'g'.repeat(40),
    };
    const off = parseEnv(subgraphEnv, base);
    expect(off.OTEL_EXPORTER_OTLP_ENDPOINT).toBeUndefined();
    expect(off.OTEL_TRACES_SAMPLE_RATIO).toBe(1);
    const on = parseEnv(subgraphEnv, {
      ...base,
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://otel-collector.observability:4318',
      OTEL_TRACES_SAMPLE_RATIO: '0.25',
    });
    expect(on.OTEL_TRACES_SAMPLE_RATIO).toBe(0.25);
    expect(() =>
      parseEnv(subgraphEnv, { ...base, OTEL_EXPORTER_OTLP_ENDPOINT: 'otel-collector:4318' }),
    ).toThrow(/OTEL_EXPORTER_OTLP_ENDPOINT/);
    expect(() => parseEnv(subgraphEnv, { ...base, OTEL_TRACES_SAMPLE_RATIO: '2' })).toThrow(
      /OTEL_TRACES_SAMPLE_RATIO/,
    );
  });
});

describe('SQL span names', () => {
  it('names a statement by its operation and first table, never by its values', () => {
    expect(sqlSummary('SELECT "public"."wallets"."id" FROM "public"."wallets" WHERE $1')).toEqual({
      operation: 'SELECT',
      name: 'SELECT wallets',
    });
    expect(sqlSummary('INSERT INTO outbox_events (id) VALUES ($1)').name).toBe(
      'INSERT outbox_events',
    );
    expect(sqlSummary('UPDATE "public"."users" SET "email" = $1').name).toBe('UPDATE users');
    expect(sqlSummary('COMMIT').name).toBe('COMMIT');
  });
});
