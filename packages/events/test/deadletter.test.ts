import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { UnhandleableEventError, isUnhandleableError, retryDelayMs } from '../src/consumer.ts';
import { formatDeadLetter, selectDeadLetters, type DeadLetter } from '../src/deadletter.ts';
import { MalformedEventError } from '../src/schemas.ts';

const letter = (
  partition: number,
  offset: string,
  extra: Partial<DeadLetter> = {},
): DeadLetter => ({
  partition,
  offset,
  originalTopic: 'p.challenge.v1',
  originalPartition: 2,
  originalOffset: '17',
  group: 'p.wallet',
  reason: 'handler refused: x',
  kind: 'unhandleable',
  parkedAt: '2026-01-01T00:00:00.000Z',
  eventType: 'ChallengeCompleted',
  eventId: 'e-1',
  key: null,
  value: null,
  headers: {},
  ...extra,
});

describe('handler errors', () => {
  it('treats refusals, zod errors, malformed events and bad JSON as never handleable', () => {
    expect(isUnhandleableError(new UnhandleableEventError('no'))).toBe(true);
    expect(isUnhandleableError(new MalformedEventError('bad'))).toBe(true);
    expect(isUnhandleableError(z.object({ a: z.string() }).safeParse({}).error)).toBe(true);
    let syntax: unknown;
    try {
      JSON.parse('{');
    } catch (error) {
      syntax = error;
    }
    expect(isUnhandleableError(syntax)).toBe(true);
  });

  it('treats anything else as our own infrastructure, to be retried', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), {
      code: 'ECONNREFUSED',
    });
    expect(isUnhandleableError(refused)).toBe(false);
    expect(isUnhandleableError(new Error('deadlock detected'))).toBe(false);
    expect(isUnhandleableError(new TypeError('x is undefined'))).toBe(false);
    expect(isUnhandleableError('a string')).toBe(false);
  });

  it('backs off from the base, doubling, capped', () => {
    expect([1, 2, 3, 4, 8, 9, 100, 10_000].map((n) => retryDelayMs(n, 250, 30_000))).toEqual([
      250, 500, 1_000, 2_000, 30_000, 30_000, 30_000, 30_000,
    ]);
  });
});

describe('selectDeadLetters', () => {
  const letters = [
    letter(0, '3'),
    letter(1, '3', { group: 'p.notification.mail', kind: 'attempts-exhausted' }),
    letter(1, '4', { kind: 'malformed' }),
    letter(2, '0', { kind: 'wrong-topic', group: 'p.notification.mail' }),
  ];

  it('takes one letter by partition:offset, or by an offset only one partition has', () => {
    expect(selectDeadLetters(letters, { offset: '1:3' }, 'p.')).toEqual([letters[1]]);
    expect(selectDeadLetters(letters, { offset: '4' }, 'p.')).toEqual([letters[2]]);
    expect(selectDeadLetters(letters, { offset: '3', group: 'wallet' }, 'p.')).toEqual([
      letters[0],
    ]);
  });

  it('refuses an ambiguous or unknown offset', () => {
    expect(() => selectDeadLetters(letters, { offset: '3' }, 'p.')).toThrow(/several partitions/);
    expect(() => selectDeadLetters(letters, { offset: '9' }, 'p.')).toThrow(/no dead letter/);
  });

  it('with --all takes the replayable kinds only, of one group when asked', () => {
    expect(selectDeadLetters(letters, { all: true }, 'p.')).toEqual([letters[0], letters[1]]);
    expect(selectDeadLetters(letters, { all: true, group: 'notification.mail' }, 'p.')).toEqual([
      letters[1],
    ]);
    expect(selectDeadLetters(letters, { group: 'p.notification.mail' }, 'p.')).toEqual([
      letters[1],
      letters[3],
    ]);
  });

  it('prints where a letter sits, where it came from, its group, reason and event', () => {
    expect(formatDeadLetter(letters[0]!)).toBe(
      '0:3  p.challenge.v1[2]@17  group=p.wallet  kind=unhandleable  type=ChallengeCompleted  id=e-1  parked=2026-01-01T00:00:00.000Z  reason="handler refused: x"',
    );
  });
});
