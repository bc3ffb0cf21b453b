import type { Redis } from 'ioredis';
import type { AuthUser } from './auth.ts';
import { AppError } from './errors.ts';

/**
 * Token state that outlives a token's signature: revocation (log-out), session versions (password
 * change or reset ends the other sessions) and bans. Identity owns this state in its database and
 * mirrors it into Redis; every subgraph and the gateway read the mirror on each authenticated
 * request, so a revoked or banned user's old token is refused everywhere at once.
 *
 * The mirror must never lift a ban or a revocation by losing keys (a flushed or restarted Redis):
 * identity writes `auth:state-synced` only after copying its whole state, and the check refuses
 * to decide (a plain Error, so a 500, never a 401 that would end the session) while that mark is
 * missing. Identity puts it back within seconds (ADR 20).
 *
 * `prefix` keeps tests apart on the shared Redis; production uses none.
 */
const keys = (prefix: string) => ({
  revoked: (tokenId: string) => `${prefix}auth:revoked:${tokenId}`,
  banned: (userId: string) => `${prefix}auth:banned:${userId}`,
  /** "<version>" or "<version>:<kept token id>": tokens of an older version are refused. */
  sessions: (userId: string) => `${prefix}auth:sessions:${userId}`,
  synced: `${prefix}auth:state-synced`,
  /** Written before session versions existed ("tokens issued before this second"); read only. */
  legacyValidAfter: (userId: string) => `${prefix}auth:valid-after:${userId}`,
});

export const authStateKeys = keys;

/** Sets the session record unless Redis already holds a newer version (writes in any order). */
const SET_SESSIONS_SCRIPT = `
local current = redis.call('GET', KEYS[1])
if current then
  local version = tonumber(string.match(current, '^(%d+)'))
  if version and version > tonumber(ARGV[1]) then return 0 end
end
redis.call('SET', KEYS[1], ARGV[2])
return 1`;

export async function revokeToken(
  redis: Redis,
  user: Pick<AuthUser, 'tokenId' | 'expiresAt'>,
  prefix = '',
): Promise<void> {
  const ttl = user.expiresAt - Math.floor(Date.now() / 1000);
  if (ttl > 0) await redis.set(keys(prefix).revoked(user.tokenId), '1', 'EX', ttl);
}

/**
 * Tokens of the user with a session version below `version` are refused, except the one token
 * `keptTokenId` (the session that changed the password stays logged in).
 */
export async function setSessionVersion(
  redis: Redis,
  userId: string,
  version: number,
  keptTokenId: string | null,
  prefix = '',
): Promise<void> {
  const value = keptTokenId ? `${version}:${keptTokenId}` : String(version);
  await redis.eval(SET_SESSIONS_SCRIPT, 1, keys(prefix).sessions(userId), version, value);
}

/** Idempotent: the mark is the same whatever the number of writes. */
export async function markBanned(
  redis: Redis,
  userId: string,
  banned: boolean,
  prefix = '',
): Promise<void> {
  if (banned) await redis.set(keys(prefix).banned(userId), '1');
  else await redis.del(keys(prefix).banned(userId));
}

export async function isBanMarked(redis: Redis, userId: string, prefix = ''): Promise<boolean> {
  return (await redis.exists(keys(prefix).banned(userId))) === 1;
}

/** Whether the mirror is complete (identity copied its state since Redis last lost it). */
export async function isAuthStateSynced(redis: Redis, prefix = ''): Promise<boolean> {
  return (await redis.exists(keys(prefix).synced)) === 1;
}

/** Error of a check that cannot decide: Redis lost the token state and identity has not restored it. */
export class AuthStateUnavailableError extends Error {
  constructor() {
    super('token state not available: waiting for identity to restore it in Redis');
    this.name = 'AuthStateUnavailableError';
  }
}

/**
 * The Redis keys whose values decide whether a verified token is still good, in the order
 * `decideAccess` reads them. The gateway reads them in the same round trip as its rate limit
 * (docs/adr/0088); the subgraphs with `createAccessCheck`.
 */
export function accessStateKeys(user: AuthUser, prefix = ''): string[] {
  const k = keys(prefix);
  return [
    k.revoked(user.tokenId),
    k.banned(user.id),
    k.sessions(user.id),
    k.synced,
    k.legacyValidAfter(user.id),
  ];
}

/**
 * Throws AppError('unauthorized') for a revoked token or one of an ended session,
 * AppError('banned_user') for a ban, AuthStateUnavailableError while the state is not in Redis;
 * `values` are those of `accessStateKeys(user)`.
 */
export function decideAccess(user: AuthUser, values: readonly (string | null)[]): void {
  const [revoked, banned, sessions, synced, validAfter] = values;
  if (banned) throw new AppError('banned_user');
  if (!synced) throw new AuthStateUnavailableError();
  if (revoked) throw new AppError('unauthorized');
  if (validAfter && user.issuedAt < Number(validAfter)) throw new AppError('unauthorized');
  if (sessions) {
    const [version, kept] = sessions.split(':');
    if (user.sessionVersion < Number(version) && user.tokenId !== kept) {
      throw new AppError('unauthorized');
    }
  }
}

/** The check of `decideAccess`, reading its keys with one MGET. */
export function createAccessCheck(redis: Redis, prefix = ''): (user: AuthUser) => Promise<void> {
  return async (user) => decideAccess(user, await redis.mget(...accessStateKeys(user, prefix)));
}
