import { describe, expect, it } from 'vitest';
import { envSchema as gateway } from '../../gateway/src/env.ts';
import { envSchema as challenge } from '../../services/challenge/src/env.ts';
import { envSchema as identity } from '../../services/identity/src/env.ts';
import { envSchema as media } from '../../services/media/src/env.ts';
import { envSchema as moderation } from '../../services/moderation/src/env.ts';
import { envSchema as notification } from '../../services/notification/src/env.ts';
import { envSchema as wallet } from '../../services/wallet/src/env.ts';

/**
 * Node's timers hold at most 2^31-1 ms (about 24.8 days): setTimeout and setInterval with more
 * fire after 1 ms, with a TimeoutOverflowWarning, so a mistyped interval would turn a scheduler
 * into a busy loop. Every duration in milliseconds (*_MS) that an env module reads is bounded.
 */
const MAX_TIMER_MS = 2 ** 31 - 1;
const processes = { gateway, challenge, identity, media, moderation, notification, wallet };
const durations = Object.entries(processes).flatMap(([process, schema]) =>
  Object.keys(schema.shape)
    .filter((key) => key.endsWith('_MS'))
    .map((key) => [process, key, schema.shape[key as keyof typeof schema.shape]] as const),
);

describe('every *_MS environment variable fits a Node timer', () => {
  it('there are such variables (the list below is not empty by mistake)', () => {
    expect(durations.map(([process, key]) => `${process} ${key}`)).toEqual(
      expect.arrayContaining([
        'challenge SCHEDULER_INTERVAL_MS',
        'wallet RECONCILIATION_INTERVAL_MS',
        'media VIDEO_FFMPEG_TIMEOUT_MS',
        'gateway SHUTDOWN_TIMEOUT_MS',
      ]),
    );
  });

  it.each(durations)('%s %s refuses 2^31 ms and takes 2^31-1', (_process, key, schema) => {
    const over = (schema as { safeParse(v: unknown): { success: boolean } }).safeParse(
      String(MAX_TIMER_MS + 1),
    );
    const limit = (schema as { safeParse(v: unknown): { success: boolean } }).safeParse(
      String(MAX_TIMER_MS),
    );
    expect({ key, over: over.success, limit: limit.success }).toEqual({
      key,
      over: false,
      limit: true,
    });
  });
});
