import { Redis } from 'ioredis';
import type { Logger } from 'pino';

export type { Redis };

export function createRedis(url: string, logger: Logger): Redis {
  const redis = new Redis(url, { maxRetriesPerRequest: 3, connectTimeout: 5_000 });
  // Without a listener ioredis prints every reconnect failure as an unhandled error.
  redis.on('error', (error) => logger.warn({ err: error }, 'redis error'));
  return redis;
}

export async function pingRedis(redis: Redis): Promise<void> {
  const answer = await redis.ping();
  if (answer !== 'PONG') throw new Error(`unexpected PING answer ${answer}`);
}
