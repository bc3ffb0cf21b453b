import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { stackUrls } from '../../../scripts/lib/stack-config.mjs';
import {
  AppError,
  createAccessCheck,
  markBanned,
  revokeAllTokens,
  revokeToken,
  type AuthUser,
} from '../src/index.ts';

const redis = new Redis(stackUrls().redisUrl);
afterAll(() => redis.quit());
const check = createAccessCheck(redis);
const now = () => Math.floor(Date.now() / 1000);
const user = (): AuthUser => ({
  id: randomUUID(),
  roles: ['user'],
  tokenId: randomUUID(),
  issuedAt: now() - 10,
  expiresAt: now() + 60,
});

describe('token state in Redis', () => {
  it('lets a fresh token through', async () => {
    await expect(check(user())).resolves.toBeUndefined();
  });

  it('refuses a revoked token until it would have expired anyway, and only that token', async () => {
    const victim = user();
    await revokeToken(redis, victim);
    await expect(check(victim)).rejects.toEqual(new AppError('unauthorized'));
    await expect(check({ ...victim, tokenId: randomUUID() })).resolves.toBeUndefined();
    const ttl = await redis.ttl(`auth:revoked:${victim.tokenId}`);
    expect(ttl).toBeGreaterThan(50);
    expect(ttl).toBeLessThanOrEqual(60);
  });

  it('refuses every token of a banned user, including ones issued before the ban, until unbanned', async () => {
    const banned = user();
    await markBanned(redis, banned.id, true);
    await expect(check(banned)).rejects.toEqual(new AppError('banned_user'));
    await markBanned(redis, banned.id, false);
    await expect(check(banned)).resolves.toBeUndefined();
  });

  it('refuses tokens issued before "log out everywhere" and accepts later ones', async () => {
    const old = user();
    await revokeAllTokens(redis, old.id);
    await expect(check(old)).rejects.toEqual(new AppError('unauthorized'));
    await expect(
      check({ ...old, tokenId: randomUUID(), issuedAt: now() + 1 }),
    ).resolves.toBeUndefined();
  });
});
