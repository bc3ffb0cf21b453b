import {
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  context,
  propagation,
  trace,
  type Context,
  type Span,
  type TextMapGetter,
  type Tracer,
} from '@opentelemetry/api';
import type { IHeaders } from 'kafkajs';

/**
 * W3C trace context across Kafka (docs/adr/0080): the outbox row keeps the context of the request
 * that enqueued the event, the relay's publish span continues it and travels in the message's
 * headers, and the consumer's span continues that. This package uses the OpenTelemetry API only:
 * without a registered provider (kit's tracing, off unless configured) every call is a no-op.
 */

export type { Tracer };

/** Spans of the relay and consumers when the service passes no tracer of its own. */
export const eventsTracer = (): Tracer => trace.getTracer('@challenge/events');

/** The active context as headers (`traceparent`, `tracestate`), or null when there is none. */
export function currentTraceContext(): Record<string, string> | null {
  const carrier: Record<string, string> = {};
  propagation.inject(context.active(), carrier);
  return Object.keys(carrier).length > 0 ? carrier : null;
}

const kafkaHeaderGetter: TextMapGetter<IHeaders> = {
  keys: (carrier) => Object.keys(carrier),
  get(carrier, key) {
    const value = carrier[key];
    if (value === undefined) return undefined;
    return Array.isArray(value) ? value.map(String) : String(value);
  },
};

/** The context a stored carrier or a message's headers hold (the root context when none). */
export function traceContextOf(carrier: IHeaders | null | undefined): Context {
  if (!carrier) return ROOT_CONTEXT;
  return propagation.extract(ROOT_CONTEXT, carrier, kafkaHeaderGetter);
}

/** A PRODUCER span for one message, child of the enqueuing request's context. */
export function startPublishSpan(
  tracer: Tracer,
  topic: string,
  message: { id: string; type: string; key: string },
  stored: IHeaders | null,
): { span: Span; headers: Record<string, string> } {
  const parent = traceContextOf(stored);
  const span = tracer.startSpan(
    `publish ${topic}`,
    {
      kind: SpanKind.PRODUCER,
      attributes: {
        'messaging.system': 'kafka',
        'messaging.operation.type': 'send',
        'messaging.destination.name': topic,
        'messaging.message.id': message.id,
        'messaging.kafka.message.key': message.key,
        'event.type': message.type,
      },
    },
    parent,
  );
  const headers: Record<string, string> = {};
  propagation.inject(trace.setSpan(parent, span), headers);
  return { span, headers };
}

/** Runs a consumer's handler in a CONSUMER span that continues the message's trace. */
export async function inConsumeSpan<T>(
  tracer: Tracer,
  message: { topic: string; partition: number; offset: string; headers?: IHeaders },
  event: { id: string; type: string },
  work: () => Promise<T>,
): Promise<T> {
  const parent = traceContextOf(message.headers);
  const span = tracer.startSpan(
    `process ${message.topic}`,
    {
      kind: SpanKind.CONSUMER,
      attributes: {
        'messaging.system': 'kafka',
        'messaging.operation.type': 'process',
        'messaging.destination.name': message.topic,
        'messaging.destination.partition.id': String(message.partition),
        'messaging.kafka.offset': Number(message.offset),
        'messaging.message.id': event.id,
        'event.type': event.type,
      },
    },
    parent,
  );
  try {
    return await context.with(trace.setSpan(parent, span), work);
  } catch (error) {
    endFailed(span, error);
    throw error;
  } finally {
    span.end();
  }
}

export function endFailed(span: Span, error: unknown): void {
  span.recordException(error instanceof Error ? error : String(error));
  span.setStatus({ code: SpanStatusCode.ERROR });
}
