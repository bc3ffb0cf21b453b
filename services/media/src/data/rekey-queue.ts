import { Queue, Worker, type Job } from 'bullmq';
import type { Logger } from 'pino';
import { z } from 'zod';

/**
 * The BullMQ adapter of the jobs that move a challenge's objects to new keys (docs/adr/0065,
 * docs/adr/0073): the consumer records the wanted move and queues a job; a worker beside it does
 * the copies, so a slow move never holds up the consumer's partition. As for the processing
 * queue (video-queue.ts), renaming the queue or the job strands the jobs waiting in Redis.
 */
export const REKEY_QUEUE = 'challenge-rekeys';
export const REKEY_JOB = 'rekey-challenge';

const payloadSchema = z.object({ challengeId: z.uuid(), requestedAt: z.number().int() });
type RekeyPayload = z.infer<typeof payloadSchema>;

export interface RekeyQueueSettings {
  redisUrl: string;
  /** Prefix of the BullMQ keys (shared with the processing queue: VIDEO_QUEUE_PREFIX). */
  prefix: string;
  /** Moves this process runs at once (server-side copies: light on the process). */
  concurrency?: number;
}

export interface RekeyJobs {
  /**
   * Queues the move asked for at `requestedAt`: one job per request (a redelivered event adds
   * nothing), so a request made while an earlier move runs gets its own job.
   */
  request(challengeId: string, requestedAt: Date): Promise<void>;
  close(): Promise<void>;
}

const connection = (redisUrl: string) => ({ url: redisUrl, maxRetriesPerRequest: null });

export function startRekeyJobs(
  settings: RekeyQueueSettings,
  run: (challengeId: string, requestedAt: Date) => Promise<void>,
  logger: Logger,
): RekeyJobs {
  const queue = new Queue(REKEY_QUEUE, {
    connection: connection(settings.redisUrl),
    prefix: settings.prefix,
  });
  const worker = new Worker(
    REKEY_QUEUE,
    async (job: Job<RekeyPayload>) => {
      const payload = payloadSchema.parse(job.data);
      await run(payload.challengeId, new Date(payload.requestedAt));
    },
    {
      connection: connection(settings.redisUrl),
      prefix: settings.prefix,
      concurrency: settings.concurrency ?? 4,
    },
  );
  worker.on('failed', (job, error) =>
    // The request stays on the projection row: the sweep finishes it (finishStaleRekeys).
    logger.warn({ challengeId: job?.data.challengeId, err: error }, 'challenge move failed'),
  );
  worker.on('error', (error) => logger.error({ err: error }, 'rekey worker error'));
  return {
    async request(challengeId, requestedAt) {
      const data = payloadSchema.parse({ challengeId, requestedAt: requestedAt.getTime() });
      await queue.add(REKEY_JOB, data, {
        jobId: `${challengeId}-${data.requestedAt}`,
        attempts: 5,
        backoff: { type: 'exponential', delay: 1_000 },
        removeOnComplete: { age: 24 * 60 * 60 },
        removeOnFail: { age: 7 * 24 * 60 * 60 },
      });
    },
    async close() {
      await worker.close();
      await queue.close();
    },
  };
}
