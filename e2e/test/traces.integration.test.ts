import { randomBytes, randomUUID } from 'node:crypto';
import { buildApp as buildIdentity } from '@challenge/identity/app';
import { registerTracing, type Tracing } from '@challenge/kit';
import { buildApp as buildNotification } from '@challenge/notification/app';
import {
  deleteTopics,
  eventually,
  stack,
  startTestService,
  testIdentityConfig,
  testWalletConfig,
  uniqueTopicPrefix,
  type TestService,
} from '@challenge/testing';
import { buildApp as buildWallet } from '@challenge/wallet/app';
import { SpanKind } from '@opentelemetry/api';
import {
  InMemorySpanExporter,
  SimpleSpanProcessor,
  type ReadableSpan,
} from '@opentelemetry/sdk-trace-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BrowserSession,
  VERIFY_USER,
  newAddress,
  requestCode,
  signUpInput,
} from '../support/browser-session.ts';
import { startTestGateway } from '../support/gateway.ts';

/**
 * One request's trace, from the browser's traceparent through the gateway, identity and its
 * database, the outbox and Kafka to wallet's consumer (docs/adr/0080). The processes share this
 * test's process, but nothing shares a context but what travels in headers: an HTTP server
 * handles each request in the context of its socket, and each consumer in that of its own loop.
 * The spans go to an in-memory exporter; each service's tracer is named after it.
 */
describe('one trace from the browser to a consumer', () => {
  const topicPrefix = uniqueTopicPrefix();
  const exporter = new InMemorySpanExporter();
  let tracing: Tracing;
  const services: TestService<{ subgraph: unknown }>[] = [];
  let gateway: Awaited<ReturnType<typeof startTestGateway>>;

  beforeAll(async () => {
    tracing = registerTracing({
      service: 'e2e',
      spanProcessors: [new SimpleSpanProcessor(exporter)],
      edge: true,
    });
    const options = { topicPrefix };
    const started = await Promise.all([
      startTestService(
        'identity',
        async (runtime, url) => buildIdentity(runtime, await testIdentityConfig(url)),
        options,
      ),
      startTestService('wallet', (runtime, url) => buildWallet(runtime, testWalletConfig(url)), {
        topicPrefix,
      }),
      startTestService(
        'notification',
        (runtime, url) =>
          buildNotification(runtime, url, {
            mail: {
              host: stack.smtp.host,
              port: stack.smtp.port,
              secure: false,
              from: 'Challenge <no-reply@challenge.test>',
            },
          }),
        options,
      ),
    ]);
    services.push(...started);
    gateway = await startTestGateway(
      Object.fromEntries(started.map((service) => [service.runtime.name, service.url])),
    );
  });

  afterAll(async () => {
    await gateway?.stop();
    await Promise.all(services.map((service) => service.stop()));
    await deleteTopics(topicPrefix);
    await tracing?.shutdown();
  });

  const spansOf = (traceId: string) =>
    exporter.getFinishedSpans().filter((span) => span.spanContext().traceId === traceId);
  const byId = (spans: ReadableSpan[]) =>
    new Map(spans.map((span) => [span.spanContext().spanId, span]));
  /** The chain of parents of `span` within its trace, nearest first. */
  function ancestors(span: ReadableSpan, spans: ReadableSpan[]): ReadableSpan[] {
    const index = byId(spans);
    const chain: ReadableSpan[] = [];
    for (
      let parent = index.get(span.parentSpanContext?.spanId ?? '');
      parent;
      parent = index.get(parent.parentSpanContext?.spanId ?? '')
    ) {
      chain.push(parent);
    }
    return chain;
  }
  const describeSpan = (span: ReadableSpan) =>
    `${span.instrumentationScope.name}: ${span.name} (${SpanKind[span.kind]})`;

  it("carries the browser's trace id through the gateway, identity, its database and Kafka to wallet's consumer", async () => {
    const browser = new BrowserSession(gateway.url);
    const email = newAddress('trace');
    const code = await requestCode(browser, email);

    // The web app's header (web/src/app/traceparent.ts): a trace that starts in the browser.
    const traceId = randomBytes(16).toString('hex');
    const browserSpanId = randomBytes(8).toString('hex');
    const created = await browser.send(
      VERIFY_USER,
      signUpInput(email, code, `trace_${randomUUID().slice(0, 8)}`),
      { traceparent: `00-${traceId}-${browserSpanId}-01` },
    );
    expect(created.data.verifyUser.status.success).toBe(true);

    // UserRegistered reaches wallet through the outbox and Kafka, later than the answer.
    const consumed = await eventually(() => {
      const span = spansOf(traceId).find(
        (s) =>
          s.instrumentationScope.name === 'wallet' &&
          s.kind === SpanKind.CONSUMER &&
          s.attributes['event.type'] === 'UserRegistered',
      );
      if (!span) throw new Error(`no wallet consumer span in ${traceId} yet`);
      return span;
    });
    const spans = spansOf(traceId);
    const trail = spans.map(describeSpan).join('\n');

    // The gateway's request continues the browser's span.
    const gatewayServer = spans.find(
      (s) => s.instrumentationScope.name === 'gateway' && s.kind === SpanKind.SERVER,
    );
    expect(gatewayServer, trail).toBeDefined();
    expect(gatewayServer!.parentSpanContext?.spanId).toBe(browserSpanId);
    expect(gatewayServer!.name).toBe('mutation anonymous');

    // Identity's request continues the gateway's fetch of identity.
    const identityServer = spans.find(
      (s) => s.instrumentationScope.name === 'identity' && s.kind === SpanKind.SERVER,
    );
    expect(identityServer, trail).toBeDefined();
    const fetch = byId(spans).get(identityServer!.parentSpanContext?.spanId ?? '');
    expect(fetch && describeSpan(fetch)).toBe('gateway: POST identity (CLIENT)');
    expect(ancestors(identityServer!, spans)).toContain(gatewayServer);

    // The user's row is written under identity's request span.
    const insert = spans.find(
      (s) =>
        s.instrumentationScope.name === 'postgresql' &&
        s.name === 'INSERT users' &&
        ancestors(s, spans).includes(identityServer!),
    );
    expect(insert, trail).toBeDefined();
    expect(insert!.attributes['db.query.text']).toMatch(/^\s*INSERT INTO users \(/);
    // Parameterised: the e-mail address is an argument, never part of the span.
    expect(JSON.stringify(insert!.attributes)).not.toContain(email);

    // The relay published later from the outbox row, continuing the request's context, and
    // wallet's consumer continued the message's: its wallet is written under it.
    const publish = byId(spans).get(consumed.parentSpanContext?.spanId ?? '');
    expect(publish && describeSpan(publish)).toBe(
      `identity: publish ${topicPrefix}identity.v1 (PRODUCER)`,
    );
    expect(ancestors(consumed, spans)).toContain(identityServer);
    expect(
      spans.some(
        (s) =>
          s.instrumentationScope.name === 'postgresql' &&
          // One statement opens the wallet with its accounts (a WITH of inserts, ADR 93).
          String(s.attributes['db.query.text']).includes('INSERT INTO wallets') &&
          ancestors(s, spans).includes(consumed),
      ),
      trail,
    ).toBe(true);
  });

  it('keeps the probes and the relay polls out of traces', () => {
    const scopes = new Set(
      exporter
        .getFinishedSpans()
        .filter((span) => !span.parentSpanContext)
        .map(describeSpan),
    );
    // Roots are requests and publishes, never a lone SQL statement of a background loop.
    for (const root of scopes) expect(root).not.toMatch(/^postgresql:/);
  });
});
