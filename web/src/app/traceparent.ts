import { ApolloLink } from '@apollo/client';

const hex = (bytes: Uint8Array) =>
  Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');

/** Random ids of `length` bytes, never all zero (W3C calls that invalid). */
function randomId(length: number): string {
  for (;;) {
    const bytes = crypto.getRandomValues(new Uint8Array(length));
    if (bytes.some((byte) => byte !== 0)) return hex(bytes);
  }
}

/**
 * A W3C `traceparent` for one request, so that its trace starts in the browser (docs/adr/0080):
 * a new trace id and span id, flag "sampled". The gateway keeps the trace id and decides the
 * sampling itself. No tracing SDK: these few lines are all the web app needs.
 */
export function newTraceparent(): string {
  return `00-${randomId(16)}-${randomId(8)}-01`;
}

/** Gives every GraphQL request its own `traceparent` header. */
export const traceparentLink = new ApolloLink((operation, forward) => {
  operation.setContext(({ headers }: { headers?: Record<string, string> }) => ({
    headers: { ...headers, traceparent: newTraceparent() },
  }));
  return forward(operation);
});
