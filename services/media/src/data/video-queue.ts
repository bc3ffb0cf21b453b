import {
  SpanKind,
  contextFromHeaders,
  inSpan,
  tracerFor,
  traceHeaders,
} from '@challenge/kit/tracing';
import { Queue, UnrecoverableError, Worker, type Job } from 'bullmq';
import type { Logger } from 'pino';
import { z } from 'zod';
import type { VideoProcessingQueue } from '../domain/processing-queue.ts';

/**
 * The BullMQ adapter of the processing queue (docs/adr/0037): the only code in media that talks
 * to BullMQ. Queue and job names live here and nowhere else; renaming either strands the jobs
 * already waiting in Redis, so a rename needs a drain (or both names served) first.
 */
export const VIDEO_QUEUE = 'video-processing';
export const JOB_NAMES = { processVideo: 'process-video' } as const;

interface JobPayloads {
  /** `trace`: the W3C context of the upload that enqueued it (docs/adr/0080), if traced. */
  [JOB_NAMES.processVideo]: { videoId: string; trace?: Record<string, string> };
}
type ProcessVideoJob = Job<JobPayloads['process-video'], unknown, 'process-video'>;

const payloadSchema = z.object({
  videoId: z.uuid(),
  trace: z.record(z.string(), z.string()).optional(),
});

export interface VideoQueueSettings {
  redisUrl: string;
  /** Prefix of every BullMQ key in Redis: isolates tests and deployments sharing a Redis. */
  prefix: string;
  /** Attempts of one job before it fails for good, and the first backoff (doubled each time). */
  attempts: number;
  backoffMs: number;
}

export interface VideoWorkerSettings {
  /** Jobs this process runs at once; each is one ffmpeg (docs/adr/0037). */
  concurrency: number;
  /** A job whose lock is not renewed for this long counts as stalled (its worker died). */
  lockDurationMs: number;
  /** How often the worker looks for stalled jobs. */
  stalledIntervalMs: number;
  /** A job stalled more often than this fails for good (a video that kills its worker). */
  maxStalledCount: number;
}

export const DEFAULT_WORKER_SETTINGS: Omit<VideoWorkerSettings, 'concurrency'> = {
  lockDurationMs: 30_000,
  stalledIntervalMs: 30_000,
  maxStalledCount: 2,
};

/** BullMQ's lowest priority. */
const MAX_PRIORITY = 2_097_151;

/** BullMQ's blocking commands need connections that never give up on a request. */
const connection = (redisUrl: string) => ({ url: redisUrl, maxRetriesPerRequest: null });

export interface BullVideoQueue extends VideoProcessingQueue {
  readonly queue: Queue;
  /** Jobs by state, for the queue-depth metric. */
  depth(): Promise<Record<JobState, number>>;
  close(): Promise<void>;
}

export const JOB_STATES = ['waiting', 'prioritized', 'delayed', 'active', 'failed'] as const;
export type JobState = (typeof JOB_STATES)[number];

export function createVideoQueue(settings: VideoQueueSettings): BullVideoQueue {
  const queue = new Queue(VIDEO_QUEUE, {
    connection: connection(settings.redisUrl),
    prefix: settings.prefix,
  });
  return {
    queue,
    async enqueue(videoId, options = {}) {
      const trace = traceHeaders();
      const data = payloadSchema.parse(
        Object.keys(trace).length > 0 ? { videoId, trace } : { videoId },
      );
      await queue.add(JOB_NAMES.processVideo, data, {
        // One job per video: enqueueing twice (a retried upload request, the sweep) adds nothing.
        jobId: videoId,
        // Lower first, FIFO among equals; never 0 (BullMQ runs unprioritised jobs before all).
        priority: Math.min(MAX_PRIORITY, Math.max(1, options.position ?? 1)),
        attempts: settings.attempts,
        backoff: { type: 'exponential', delay: settings.backoffMs },
        removeOnComplete: { age: 24 * 60 * 60, count: 10_000 },
        removeOnFail: { age: 30 * 24 * 60 * 60 },
      });
    },
    async stateOf(videoId) {
      const state = await queue.getJobState(videoId);
      if (state === 'unknown') return 'missing';
      if (state === 'failed' || state === 'completed') return state;
      return 'pending';
    },
    async depth() {
      const counts = await queue.getJobCounts(...JOB_STATES);
      return Object.fromEntries(JOB_STATES.map((state) => [state, counts[state] ?? 0])) as Record<
        JobState,
        number
      >;
    },
    close: () => queue.close(),
  };
}

export interface VideoJobHandlers {
  process(videoId: string, attempt: { lastAttempt: boolean }): Promise<void>;
  /**
   * The job failed for good outside `process`'s own last attempt: a worker died on it more than
   * `maxStalledCount` times, or the payload is malformed.
   */
  gaveUp(videoId: string): Promise<void>;
}

export interface VideoWorker {
  readonly worker: Worker<JobPayloads['process-video'], void, 'process-video'>;
  close(): Promise<void>;
}

export function startVideoWorker(
  queueSettings: VideoQueueSettings,
  settings: VideoWorkerSettings,
  handlers: VideoJobHandlers,
  logger: Logger,
): VideoWorker {
  const tracer = tracerFor('media');
  const worker = new Worker(
    VIDEO_QUEUE,
    async (job: ProcessVideoJob) => {
      const payload = payloadSchema.safeParse(job.data);
      if (!payload.success) throw new UnrecoverableError('malformed job payload');
      const attempts = job.opts.attempts ?? 1;
      // The job continues the upload's trace, however much later a worker takes it.
      await inSpan(
        tracer,
        `process ${VIDEO_QUEUE}`,
        {
          kind: SpanKind.CONSUMER,
          parent: contextFromHeaders(payload.data.trace),
          attributes: {
            'messaging.system': 'bullmq',
            'messaging.destination.name': VIDEO_QUEUE,
            'messaging.message.id': payload.data.videoId,
            'job.attempt': job.attemptsMade + 1,
          },
        },
        () =>
          handlers.process(payload.data.videoId, {
            lastAttempt: job.attemptsMade + 1 >= attempts,
          }),
      );
    },
    {
      connection: connection(queueSettings.redisUrl),
      prefix: queueSettings.prefix,
      concurrency: settings.concurrency,
      lockDuration: settings.lockDurationMs,
      stalledInterval: settings.stalledIntervalMs,
      maxStalledCount: settings.maxStalledCount,
    },
  );
  worker.on('failed', (job, error) => {
    const videoId = job?.data.videoId;
    logger.warn({ videoId, attemptsMade: job?.attemptsMade, err: error }, 'video job failed');
    if (!job || !payloadSchema.safeParse(job.data).success) return;
    // Retried (delayed) or failed for good? Only the latter needs the row closed.
    void job
      .isFailed()
      .then((failed) => (failed ? handlers.gaveUp(job.data.videoId) : undefined))
      .catch((cause: unknown) => logger.error({ videoId, err: cause }, 'closing a failed video'));
  });
  worker.on('stalled', (jobId) => logger.warn({ videoId: jobId }, 'video job stalled'));
  worker.on('error', (error) => logger.error({ err: error }, 'video worker error'));
  return { worker, close: () => worker.close() };
}
