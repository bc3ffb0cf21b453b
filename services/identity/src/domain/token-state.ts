import { randomUUID } from 'node:crypto';
import {
  authStateKeys,
  isAuthStateSynced,
  isBanMarked,
  markBanned,
  revokeToken,
  setSessionVersion,
  type Logger,
  type Redis,
} from '@challenge/kit';
import {
  deleteExpiredRevokedTokens,
  findUnbannedAmong,
  listBannedUserIds,
  listLiveRevokedTokens,
  listRaisedSessions,
  type SessionState,
} from '../data/auth-state.ts';
import type { Database } from '../data/db.ts';

/**
 * The Redis mirror of identity's token state (kit's access.ts reads it): revoked tokens, session
 * versions and ban marks. Every write is idempotent; the database is the truth, and the mirror
 * is copied again in full at start, whenever Redis lost it, and every few minutes (ADR 20).
 */
export interface TokenState {
  revoke(token: { tokenId: string; expiresAt: Date }): Promise<void>;
  setSessions(state: SessionState): Promise<void>;
  markBanned(userId: string, banned: boolean): Promise<void>;
  isBanMarked(userId: string): Promise<boolean>;
  isSynced(): Promise<boolean>;
  redis: Redis;
  prefix: string;
}

export function createTokenState(redis: Redis, prefix = ''): TokenState {
  return {
    redis,
    prefix,
    revoke: (token) =>
      revokeToken(
        redis,
        { tokenId: token.tokenId, expiresAt: Math.floor(token.expiresAt.getTime() / 1000) },
        prefix,
      ),
    setSessions: (state) =>
      setSessionVersion(
        redis,
        state.userId,
        state.sessionVersion,
        state.sessionKeptTokenId,
        prefix,
      ),
    markBanned: (userId, banned) => markBanned(redis, userId, banned, prefix),
    isBanMarked: (userId) => isBanMarked(redis, userId, prefix),
    isSynced: () => isAuthStateSynced(redis, prefix),
  };
}

const PAGE = 500;

/**
 * Marks the mirror complete only if no flush happened since this run began: its own marker
 * (one key per run, so replicas copying at the same time do not disturb each other) still lives.
 */
const MARK_SYNCED_SCRIPT = `
if redis.call('DEL', KEYS[1]) == 1 then
  redis.call('SET', KEYS[2], ARGV[1])
  return 1
end
return 0`;

/**
 * Copies the whole token state from the database into Redis, removes ban marks of accounts this
 * database holds unbanned, then marks the mirror complete. Returns whether it could mark it.
 */
export async function syncTokenState(
  db: Database,
  state: TokenState,
  now = new Date(),
): Promise<boolean> {
  const { redis, prefix } = state;
  const keys = authStateKeys(prefix);
  const runKey = `${prefix}auth:state-sync-run:${randomUUID()}`;
  await redis.set(runKey, '1', 'EX', 600);

  for (let after: string | null = null; ;) {
    const ids = await listBannedUserIds(db, after, PAGE);
    for (const id of ids) await state.markBanned(id, true);
    if (ids.length < PAGE) break;
    after = ids.at(-1)!;
  }
  for (let after: string | null = null; ;) {
    const rows = await listRaisedSessions(db, after, PAGE);
    for (const row of rows) {
      await state.setSessions({
        userId: row.id,
        sessionVersion: row.sessionVersion,
        sessionKeptTokenId: row.sessionKeptTokenId,
      });
    }
    if (rows.length < PAGE) break;
    after = rows.at(-1)!.id;
  }
  for (let after: string | null = null; ;) {
    const rows = await listLiveRevokedTokens(db, now, after, PAGE);
    for (const row of rows) await state.revoke(row);
    if (rows.length < PAGE) break;
    after = rows.at(-1)!.tokenId;
  }
  // A mark whose account this database holds unbanned: an unban whose delete failed.
  const pattern = `${keys.banned('')}*`;
  let cursor = '0';
  do {
    const [next, found] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', PAGE);
    cursor = next;
    const ids = found
      .map((key) => key.slice(pattern.length - 1))
      .filter((id) => /^[0-9a-f-]{36}$/i.test(id));
    if (ids.length) {
      for (const id of await findUnbannedAmong(db, ids)) await state.markBanned(id, false);
    }
  } while (cursor !== '0');

  await deleteExpiredRevokedTokens(db, now);
  const marked = await redis.eval(MARK_SYNCED_SCRIPT, 2, runKey, keys.synced, now.toISOString());
  return marked === 1;
}

/**
 * Copies the state at start (awaited: identity is ready only with a complete mirror), checks
 * every `checkIntervalMs` that Redis still has it, and copies it in full every `fullIntervalMs`
 * anyway (a write that failed after its commit is repaired then). Failures are logged and retried.
 */
export async function startTokenStateSync(deps: {
  db: Database;
  state: TokenState;
  logger: Logger;
  checkIntervalMs: number;
  fullIntervalMs: number;
}): Promise<() => void> {
  const { db, state, logger } = deps;
  let running: Promise<unknown> | null = null;
  const sync = (why: string) => {
    running ??= syncTokenState(db, state)
      .then((complete) => {
        if (complete) logger.info({ why }, 'token state copied to Redis');
        else logger.warn({ why }, 'Redis lost the token state during the copy; copying again');
      })
      .catch((error) => logger.error({ err: error, why }, 'token state copy failed'))
      .finally(() => {
        running = null;
      });
    return running;
  };
  await sync('start');
  let lastFull = Date.now();
  const timer = setInterval(() => {
    if (Date.now() - lastFull >= deps.fullIntervalMs) {
      lastFull = Date.now();
      void sync('periodic');
      return;
    }
    state
      .isSynced()
      .then((synced) => (synced ? undefined : sync('redis lost the token state')))
      .catch((error) => logger.warn({ err: error }, 'token state check failed'));
  }, deps.checkIntervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
