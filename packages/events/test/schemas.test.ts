import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { newEvent } from '../src/outbox.ts';
import { EVENT_TYPES, MalformedEventError, isEventType, parseEvent } from '../src/schemas.ts';
import { TOPICS } from '../src/topics.ts';

const userId = randomUUID();

/** A valid UserRegistered message as a producer would write it. */
const valid = () => ({
  id: randomUUID(),
  type: 'UserRegistered',
  occurredAt: '2025-05-01T10:00:00.000Z',
  aggregateId: userId,
  actorId: null,
  data: { userId, username: 'ada', email: 'ada@example.test', locale: 'nl' },
});

function malformedReason(raw: Buffer | string | null): string {
  try {
    parseEvent(raw);
  } catch (error) {
    expect(error).toBeInstanceOf(MalformedEventError);
    return (error as Error).message;
  }
  throw new Error('parseEvent accepted a malformed message');
}

describe('parseEvent', () => {
  it('accepts a valid event, from a Buffer or a string', () => {
    const event = valid();
    expect(parseEvent(Buffer.from(JSON.stringify(event)))).toEqual(event);
    expect(parseEvent(JSON.stringify({ ...event, actorId: userId }))).toEqual({
      ...event,
      actorId: userId,
    });
  });

  it('accepts an offset timestamp', () => {
    const event = { ...valid(), occurredAt: '2025-05-01T12:00:00+02:00' };
    expect(parseEvent(JSON.stringify(event))?.occurredAt).toBe('2025-05-01T12:00:00+02:00');
  });

  it('returns null for an unknown type with a valid envelope (a newer producer)', () => {
    expect(
      parseEvent(JSON.stringify({ ...valid(), type: 'UserTeleported', data: { anything: 1 } })),
    ).toBeNull();
    // Not fooled by properties every object inherits.
    expect(parseEvent(JSON.stringify({ ...valid(), type: 'toString' }))).toBeNull();
  });

  it('throws MalformedEventError for an empty message and for something that is not JSON', () => {
    expect(malformedReason(null)).toBe('empty message');
    expect(malformedReason('not json')).toBe('not JSON');
    expect(malformedReason(Buffer.from('{"id":'))).toBe('not JSON');
  });

  it.each<[string, (event: Record<string, unknown>) => unknown]>([
    ['a JSON value that is not an object', () => 42],
    ['a missing id', ({ id: _id, ...rest }) => rest],
    ['a non-uuid id', (event) => ({ ...event, id: 'event-1' })],
    ['a missing occurredAt', ({ occurredAt: _at, ...rest }) => rest],
    ['a bad occurredAt', (event) => ({ ...event, occurredAt: 'yesterday' })],
    ['an occurredAt without a time', (event) => ({ ...event, occurredAt: '2025-05-01' })],
    ['an empty type', (event) => ({ ...event, type: '' })],
    ['an empty aggregateId', (event) => ({ ...event, aggregateId: '' })],
    ['a missing actorId', ({ actorId: _actor, ...rest }) => rest],
  ])('throws MalformedEventError (bad envelope) for %s', (_case, mutate) => {
    expect(malformedReason(JSON.stringify(mutate(valid())))).toMatch(/^bad envelope: /);
  });

  it.each<[string, Record<string, unknown>]>([
    ['a bad e-mail', { email: 'not-an-email' }],
    ['an unknown locale', { locale: 'de' }],
    ['a non-uuid userId', { userId: '42' }],
    ['a missing username', { username: undefined }],
  ])("throws MalformedEventError for data that fails the type's schema: %s", (_case, change) => {
    const event = valid();
    const raw = JSON.stringify({ ...event, data: { ...event.data, ...change } });
    expect(malformedReason(raw)).toMatch(/^bad UserRegistered data: /);
  });
});

describe('newEvent', () => {
  it('validates the data and fills id and occurredAt', () => {
    const before = Date.now();
    const event = newEvent('WalletCreated', {
      aggregateId: userId,
      actorId: userId,
      data: { walletId: randomUUID(), userId },
    });
    expect(event.id).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
    expect(Date.parse(event.occurredAt)).toBeGreaterThanOrEqual(before - 1);
    expect(Date.parse(event.occurredAt)).toBeLessThanOrEqual(Date.now());
    expect(event).toMatchObject({ type: 'WalletCreated', aggregateId: userId, actorId: userId });
    // What newEvent builds is what parseEvent accepts.
    expect(parseEvent(JSON.stringify(event))).toEqual(event);
    const other = newEvent('UserVerified', {
      aggregateId: userId,
      actorId: null,
      data: { userId },
    });
    expect(other.id).not.toBe(event.id);
  });

  it('throws on data that fails the schema', () => {
    expect(() =>
      newEvent('UserBanned', {
        aggregateId: userId,
        actorId: null,
        // @ts-expect-error an invalid ban type, as a caller without types could pass
        data: { userId, type: 'forever', reason: null },
      }),
    ).toThrow();
    expect(() =>
      newEvent('UserVerified', {
        aggregateId: userId,
        actorId: null,
        data: { userId: 'not-a-uuid' },
      }),
    ).toThrow();
  });
});

describe('event contract', () => {
  it('maps every event type to a known topic that is not the dead-letter topic', () => {
    const topics = Object.values(TOPICS) as string[];
    expect(Object.keys(EVENT_TYPES).length).toBeGreaterThan(0);
    for (const [type, { topic }] of Object.entries(EVENT_TYPES)) {
      expect(topics, type).toContain(topic);
      expect(topic, type).not.toBe(TOPICS.deadLetter);
      expect(isEventType(type)).toBe(true);
    }
  });
});

describe('challenge events', () => {
  const challenge = {
    challengeId: randomUUID(),
    slug: 'jump-in-the-canal-3f9a',
    challengeName: 'Jump in the canal',
    rewardCents: 500,
    ownerId: randomUUID(),
    challengedUserId: null,
    challengedEmail: 'friend@example.test',
  };
  const message = (type: string, data: object) =>
    JSON.stringify({ ...valid(), type, aggregateId: challenge.challengeId, data });

  it('carries the challenge snapshot and the fields of its own type', () => {
    const refused = parseEvent(message('ChallengeRefused', { ...challenge, reason: 'Too cold' }));
    expect(refused?.type).toBe('ChallengeRefused');
    expect(refused?.data).toEqual({ ...challenge, reason: 'Too cold' });
  });

  it('refuses a reason over 800 characters, a reward that is not whole positive cents, a missing owner', () => {
    expect(
      malformedReason(message('ChallengeRefused', { ...challenge, reason: 'x'.repeat(801) })),
    ).toMatch(/bad ChallengeRefused data/);
    expect(
      malformedReason(message('ChallengeAccepted', { ...challenge, rewardCents: 4.5 })),
    ).toMatch(/bad ChallengeAccepted data/);
    expect(malformedReason(message('ChallengeAccepted', { ...challenge, rewardCents: 0 }))).toMatch(
      /bad ChallengeAccepted data/,
    );
    const { ownerId: _ownerId, ...ownerless } = challenge;
    expect(
      malformedReason(message('ChallengeCompleted', { ...ownerless, judgedByReferee: false })),
    ).toMatch(/bad ChallengeCompleted data/);
  });
});
