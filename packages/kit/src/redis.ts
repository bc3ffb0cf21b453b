import { Redis } from 'ioredis';
import type { Logger } from 'pino';

export type { Redis };

export interface RedisOptions {
  /**
   * Commands issued in one turn of the event loop go to Redis in one write, their answers come
   * back in one read (ioredis's auto-pipelining). For a client that sends short commands per
   * request under concurrency (the gateway's limits, the services' token state; docs/adr/0106);
   * never with blocking commands.
   */
  autoPipelining?: boolean;
}

export function createRedis(url: string, logger: Logger, options: RedisOptions = {}): Redis {
  const redis = new Redis(url, {
    maxRetriesPerRequest: 3,
    connectTimeout: 5_000,
    enableAutoPipelining: options.autoPipelining ?? false,
  });
  // Without a listener ioredis prints every reconnect failure as an unhandled error.
  redis.on('error', (error) => logger.warn({ err: error }, 'redis error'));
  return redis;
}

export async function pingRedis(redis: Redis): Promise<void> {
  const answer = await redis.ping();
  if (answer !== 'PONG') throw new Error(`unexpected PING answer ${answer}`);
}
