import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stackUrls } from '../../../scripts/lib/stack-config.mjs';
import {
  AppError,
  AuthStateUnavailableError,
  authStateKeys,
  createAccessCheck,
  markBanned,
  revokeToken,
  setSessionVersion,
  type AuthUser,
} from '../src/index.ts';

const redis = new Redis(stackUrls().redisUrl);
afterAll(() => redis.quit());
/** Keys of this file only: flushing them must not disturb other tests on the shared Redis. */
const prefix = `test:${randomUUID()}:`;
const check = createAccessCheck(redis, prefix);
beforeAll(() => redis.set(authStateKeys(prefix).synced, 'test'));
afterAll(async () => {
  const keys = await redis.keys(`${prefix}*`);
  if (keys.length) await redis.del(...keys);
});
const now = () => Math.floor(Date.now() / 1000);
const user = (): AuthUser => ({
  id: randomUUID(),
  roles: ['user'],
  tokenId: randomUUID(),
  issuedAt: now() - 10,
  expiresAt: now() + 60,
  sessionVersion: 0,
});

describe('token state in Redis', () => {
  it('lets a fresh token through', async () => {
    await expect(check(user())).resolves.toBeUndefined();
  });

  it('refuses a revoked token until it would have expired anyway, and only that token', async () => {
    const victim = user();
    await revokeToken(redis, victim, prefix);
    await expect(check(victim)).rejects.toEqual(new AppError('unauthorized'));
    await expect(check({ ...victim, tokenId: randomUUID() })).resolves.toBeUndefined();
    const ttl = await redis.ttl(`${prefix}auth:revoked:${victim.tokenId}`);
    expect(ttl).toBeGreaterThan(50);
    expect(ttl).toBeLessThanOrEqual(60);
  });

  it('refuses every token of a banned user, including ones issued before the ban, until unbanned', async () => {
    const banned = user();
    await markBanned(redis, banned.id, true, prefix);
    await expect(check(banned)).rejects.toEqual(new AppError('banned_user'));
    await markBanned(redis, banned.id, false, prefix);
    await expect(check(banned)).resolves.toBeUndefined();
  });

  it('refuses tokens of an older session version except the kept one; newer ones pass', async () => {
    const old = user();
    const kept = { ...old, tokenId: randomUUID() };
    await setSessionVersion(redis, old.id, 1, kept.tokenId, prefix);
    await expect(check(old)).rejects.toEqual(new AppError('unauthorized'));
    await expect(check(kept)).resolves.toBeUndefined();
    await expect(
      check({ ...old, tokenId: randomUUID(), sessionVersion: 1 }),
    ).resolves.toBeUndefined();
    // Writes that arrive out of order never lower the version.
    await setSessionVersion(redis, old.id, 2, null, prefix);
    await setSessionVersion(redis, old.id, 1, kept.tokenId, prefix);
    await expect(check(kept)).rejects.toEqual(new AppError('unauthorized'));
  });

  it('still honours a "log out everywhere" written before session versions existed', async () => {
    const old = user();
    await redis.set(authStateKeys(prefix).legacyValidAfter(old.id), String(now()));
    await expect(check(old)).rejects.toEqual(new AppError('unauthorized'));
    await expect(check({ ...old, issuedAt: now() + 1 })).resolves.toBeUndefined();
  });

  it('cannot decide while Redis lost the state (no synced mark): an error, never a pass', async () => {
    const banned = user();
    await markBanned(redis, banned.id, true, prefix);
    await redis.del(authStateKeys(prefix).synced);
    try {
      await redis.del(authStateKeys(prefix).banned(banned.id)); // as a flush would
      await expect(check(banned)).rejects.toBeInstanceOf(AuthStateUnavailableError);
      await expect(check(user())).rejects.toBeInstanceOf(AuthStateUnavailableError);
    } finally {
      await redis.set(authStateKeys(prefix).synced, 'test');
    }
  });
});
