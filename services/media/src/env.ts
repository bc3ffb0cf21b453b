import os from 'node:os';
import path from 'node:path';
import { internalApiEnv, loadEnv, s3Env, subgraphEnv } from '@challenge/kit';
import { z } from 'zod';
import type { MediaProcessingOptions } from './app.ts';
import type { StorageConfig } from './data/storage.ts';
import { DEFAULT_BOUNDS } from './domain/processing.ts';

/** The video pipeline (docs/adr/0037): queue, worker and ffmpeg settings. */
export const processingEnv = z.object({
  /** Jobs this process runs at once; 0 runs no worker here (the process only enqueues). */
  VIDEO_WORKER_CONCURRENCY: z.coerce.number().int().min(0).max(16).default(1),
  VIDEO_QUEUE_PREFIX: z
    .string()
    .regex(/^[a-zA-Z0-9._-]+$/)
    .default('media'),
  VIDEO_JOB_ATTEMPTS: z.coerce.number().int().min(1).max(10).default(3),
  VIDEO_JOB_BACKOFF_MS: z.coerce.number().int().positive().default(30_000),
  VIDEO_TRANSCODE_PRESET: z
    .enum(['ultrafast', 'superfast', 'veryfast', 'faster', 'fast', 'medium'])
    .default('veryfast'),
  VIDEO_TRANSCODE_THREADS: z.coerce.number().int().min(0).max(64).default(0),
  VIDEO_FFMPEG_TIMEOUT_MS: z.coerce
    .number()
    .int()
    .positive()
    .default(30 * 60 * 1000),
  VIDEO_WORK_DIR: z.string().min(1).default(path.join(os.tmpdir(), 'challenge-media')),
  /** Bounds of what is processed (docs/adr/0073); a video beyond them is refused, mailed. */
  VIDEO_MAX_SECONDS: z.coerce
    .number()
    .int()
    .positive()
    .default(DEFAULT_BOUNDS.maxDurationMs / 1000),
  VIDEO_MAX_PIXELS: z.coerce.number().int().positive().default(DEFAULT_BOUNDS.maxPixels),
  VIDEO_MAX_FRAMES: z.coerce.number().int().positive().default(DEFAULT_BOUNDS.maxFrames),
});

/** The one place media reads its environment. */
export const envSchema = subgraphEnv.extend({
  ...s3Env.shape,
  ...processingEnv.shape,
  ...internalApiEnv.shape,
  /** Identity's base URL for the profile update after an avatar upload (docs/adr/0049). */
  IDENTITY_INTERNAL_URL: z.url(),
  /** Challenge's base URL: each completed proof upload is registered there (docs/adr/0071). */
  CHALLENGE_INTERNAL_URL: z.url(),
  /** Origin browsers reach the store at, when it is not S3_ENDPOINT (compose, Kubernetes). */
  S3_PUBLIC_ENDPOINT: z.url().optional(),
  /** Hours a resumable upload session lives; older ones are swept (S3 parts aborted). */
  UPLOAD_MAX_AGE_HOURS: z.coerce.number().positive().default(24),
  /** How often the sweep of abandoned upload sessions runs. */
  UPLOAD_SWEEP_INTERVAL_MS: z.coerce
    .number()
    .int()
    .positive()
    .default(10 * 60 * 1000),
});
export type MediaEnv = ReturnType<typeof envSchema.parse>;

export const readEnv = (): MediaEnv => loadEnv(envSchema, process.env);

export const storageConfig = (env: MediaEnv): StorageConfig => ({
  endpoint: env.S3_ENDPOINT,
  region: env.S3_REGION,
  accessKey: env.S3_ACCESS_KEY,
  secretKey: env.S3_SECRET_KEY,
  bucket: env.S3_BUCKET,
  ...(env.S3_PUBLIC_ENDPOINT ? { publicEndpoint: env.S3_PUBLIC_ENDPOINT } : {}),
});

/** Resumable upload sessions: their lifetime and the sweep of abandoned ones. */
export const uploadOptions = (env: MediaEnv) => ({
  uploadSessionMaxAgeMs: Math.round(env.UPLOAD_MAX_AGE_HOURS * 60 * 60 * 1000),
  uploadSweepIntervalMs: env.UPLOAD_SWEEP_INTERVAL_MS,
});

export const identityOptions = (env: MediaEnv) => ({
  internalUrl: env.IDENTITY_INTERNAL_URL,
  internalApiToken: env.INTERNAL_API_TOKEN,
});

export const challengeOptions = (env: MediaEnv) => ({
  internalUrl: env.CHALLENGE_INTERNAL_URL,
  internalApiToken: env.INTERNAL_API_TOKEN,
});

export const processingOptions = (env: MediaEnv): MediaProcessingOptions => ({
  queue: {
    redisUrl: env.REDIS_URL,
    prefix: env.VIDEO_QUEUE_PREFIX,
    attempts: env.VIDEO_JOB_ATTEMPTS,
    backoffMs: env.VIDEO_JOB_BACKOFF_MS,
  },
  worker: { concurrency: env.VIDEO_WORKER_CONCURRENCY },
  settings: {
    workDir: env.VIDEO_WORK_DIR,
    preset: env.VIDEO_TRANSCODE_PRESET,
    threads: env.VIDEO_TRANSCODE_THREADS,
    ffmpegTimeoutMs: env.VIDEO_FFMPEG_TIMEOUT_MS,
    maxDurationMs: env.VIDEO_MAX_SECONDS * 1000,
    maxPixels: env.VIDEO_MAX_PIXELS,
    maxFrames: env.VIDEO_MAX_FRAMES,
  },
});
