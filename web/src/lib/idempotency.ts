import { useCallback, useRef } from 'react';
import type { MutationOutcome } from './mutationOutcome';

/**
 * A new idempotency key (a v4 UUID). crypto.randomUUID exists only in secure contexts (https and
 * localhost); on plain http, e.g. a phone testing a development machine, the same format is made
 * from getRandomValues.
 */
export function newIdempotencyKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** The server answered (with a result envelope), so it has handled the request either way. */
function answered(outcome: MutationOutcome<unknown>): boolean {
  return outcome.ok || outcome.status !== null;
}

/**
 * Idempotency keys for a mutation that must not happen twice (a top-up, a payout), one per
 * submission, for as long as the component is mounted.
 *
 * `keyFor(input)` gives the same key while the same input is sent again without an answer: a
 * double click, or a retry after the request failed on the way (the server may have acted on it),
 * so the server answers with the first result instead of acting twice. Other input is another
 * submission with its own key (the server refuses a key reused for other input). `settle(outcome)`
 * ends the submission once the server has answered, successfully or not: what is sent after that
 * gets a new key.
 */
export function useIdempotencyKeys() {
  const pending = useRef(new Map<string, string>());
  const keyFor = useCallback((input: unknown) => {
    const fingerprint = JSON.stringify(input);
    let key = pending.current.get(fingerprint);
    if (!key) {
      key = newIdempotencyKey();
      pending.current.set(fingerprint, key);
    }
    return key;
  }, []);
  const settle = useCallback((outcome: MutationOutcome<unknown>) => {
    if (answered(outcome)) pending.current.clear();
  }, []);
  return { keyFor, settle };
}
