import type { Redis } from 'ioredis';
import type { AuthUser } from './auth.ts';
import { AppError } from './errors.ts';

/**
 * Token state that outlives a token's signature: revocation (log-out, password change) and bans.
 * Identity writes it to Redis; every subgraph and the gateway read it on each authenticated
 * request, so a revoked or banned user's old token is refused everywhere at once.
 */
const revokedKey = (tokenId: string) => `auth:revoked:${tokenId}`;
const bannedKey = (userId: string) => `auth:banned:${userId}`;
/** Tokens issued before this instant (seconds) are refused: "log out everywhere". */
const validAfterKey = (userId: string) => `auth:valid-after:${userId}`;

export async function revokeToken(
  redis: Redis,
  user: Pick<AuthUser, 'tokenId' | 'expiresAt'>,
): Promise<void> {
  const ttl = user.expiresAt - Math.floor(Date.now() / 1000);
  if (ttl > 0) await redis.set(revokedKey(user.tokenId), '1', 'EX', ttl);
}

export async function revokeAllTokens(redis: Redis, userId: string): Promise<void> {
  await redis.set(validAfterKey(userId), String(Math.floor(Date.now() / 1000)));
}

export async function markBanned(redis: Redis, userId: string, banned: boolean): Promise<void> {
  if (banned) await redis.set(bannedKey(userId), '1');
  else await redis.del(bannedKey(userId));
}

/** Throws AppError('unauthorized') for a revoked token, AppError('banned_user') for a ban. */
export function createAccessCheck(redis: Redis): (user: AuthUser) => Promise<void> {
  return async (user) => {
    const [revoked, banned, validAfter] = await redis.mget(
      revokedKey(user.tokenId),
      bannedKey(user.id),
      validAfterKey(user.id),
    );
    if (banned) throw new AppError('banned_user');
    if (revoked) throw new AppError('unauthorized');
    // Second precision: a token issued in the very second of the revocation still passes.
    if (validAfter && user.issuedAt < Number(validAfter)) throw new AppError('unauthorized');
  };
}
