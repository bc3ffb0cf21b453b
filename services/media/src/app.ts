import { readFileSync } from 'node:fs';
import { buildSubgraphSchema } from '@apollo/subgraph';
import type { GraphQLResolverMap } from '@apollo/subgraph/dist/schema-helper/resolverMap.js';
import {
  AppError,
  createAccessCheck,
  createProfileClient,
  createProofUploadClient,
  createServiceApp,
  registerJobQueueMetrics,
  type RequestContext,
  type ServiceApp,
  type ServiceRuntime,
} from '@challenge/kit';
import { parse } from 'graphql';
import { createDatabase, pingDatabase, transactionRunner, type Database } from './data/db.ts';
import { createVideoTools, type VideoTools } from './data/ffmpeg.ts';
import { startRekeyJobs, type RekeyQueueSettings } from './data/rekey-queue.ts';
import { createStorage, type ObjectStorage, type StorageConfig } from './data/storage.ts';
import {
  DEFAULT_WORKER_SETTINGS,
  VIDEO_QUEUE,
  createVideoQueue,
  startVideoWorker,
  type VideoQueueSettings,
  type VideoWorkerSettings,
} from './data/video-queue.ts';
import {
  giveUpOnVideo,
  processVideo,
  type ProcessingDeps,
  type ProcessingSettings,
} from './domain/processing.ts';
import type { VideoProcessingQueue } from './domain/processing-queue.ts';
import { createImageResizer } from './domain/image-resizer.ts';
import { runRekeyJob } from './domain/rekeys.ts';
import { DEFAULT_SESSION_MAX_AGE_MS, startUploadSweeper } from './domain/resumable.ts';
import { createThumbnailLoader } from './domain/thumbnails.ts';
import { ipxRoutes } from './http/ipx.ts';
import type { MediaContext } from './context.ts';
import { startConsumers } from './events/consumers.ts';
import { multipartUploads, UPLOAD_PATH } from './http/multipart.ts';
import { tusRoutes, TUS_PATH } from './http/tus.ts';
import { resolvers, uploadResolvers } from './resolvers/index.ts';

export interface MediaApp extends ServiceApp {
  db: Database;
  storage: ObjectStorage;
  videoQueue: VideoProcessingQueue;
}

/** The video pipeline (docs/adr/0037); without it media enqueues nothing and runs no worker. */
export interface MediaProcessingOptions {
  queue: VideoQueueSettings;
  /** concurrency 0: this process only enqueues; other fields default to BullMQ-friendly values. */
  worker: Pick<VideoWorkerSettings, 'concurrency'> & Partial<VideoWorkerSettings>;
  settings: ProcessingSettings;
  tools?: VideoTools;
}

export interface MediaOptions {
  processing?: MediaProcessingOptions;
  /** Tests of uploads alone: where uploaded videos go instead of the pipeline's queue. */
  queue?: VideoProcessingQueue;
  /** How long a resumable upload session lives (default a day; docs/adr/0051). */
  uploadSessionMaxAgeMs?: number;
  /**
   * How often abandoned upload sessions are swept (S3 parts aborted, rows deleted); not started
   * when absent (tests start it themselves, or call the sweep).
   */
  uploadSweepIntervalMs?: number;
  /** The sweep's clock; the wall clock unless a test moves it. Never from the environment. */
  uploadSweepClock?: () => Date;
  /** Identity's internal API, for the avatar of a multipart updateProfile (docs/adr/0049). */
  identity?: { internalUrl: string; internalApiToken: string };
  /**
   * The queue of the jobs that move a hidden (or newly private) challenge's objects (docs/adr/0073);
   * the processing queue's Redis and prefix when absent. Without either, moves are left to the
   * sweep (tests that do not move objects).
   */
  rekeys?: RekeyQueueSettings;
  /**
   * Challenge's internal API, where each completed proof upload is registered against the
   * expiration date (docs/adr/0071); tests of uploads alone leave it out (nothing registered).
   */
  challenge?: { internalUrl: string; internalApiToken: string };
}

/** For tests that never upload: enqueueing fails. */
const noQueue: VideoProcessingQueue = {
  enqueue: () =>
    Promise.reject(new AppError('generic_error', 'No video processing queue is configured.')),
  stateOf: () =>
    Promise.reject(new AppError('generic_error', 'No video processing queue is configured.')),
};

const schemaFile = new URL('./schema.graphql', import.meta.url);
/** What only the multipart route runs besides the subgraph: updateProfile (docs/adr/0049). */
const uploadSchemaFile = new URL('./upload-schema.graphql', import.meta.url);

/** Builds media on top of the shared runtime; importable by tests. */
export async function buildApp(
  runtime: ServiceRuntime,
  databaseUrl: string,
  storageConfig: StorageConfig,
  options: MediaOptions = {},
): Promise<MediaApp> {
  const storage = createStorage(storageConfig);
  // Before anything else: an unreachable or misconfigured store fails the start, not the first upload.
  await storage.ensureBucket();
  const db = createDatabase(databaseUrl);
  const { processing } = options;
  const sessionMaxAgeMs = options.uploadSessionMaxAgeMs ?? DEFAULT_SESSION_MAX_AGE_MS;
  const queue = processing ? createVideoQueue(processing.queue) : null;
  const videoQueue: VideoProcessingQueue = queue ?? options.queue ?? noQueue;
  const profiles = options.identity
    ? createProfileClient({
        baseUrl: options.identity.internalUrl,
        token: options.identity.internalApiToken,
      })
    : null;
  const rekeySettings =
    options.rekeys ??
    (processing && { redisUrl: processing.queue.redisUrl, prefix: processing.queue.prefix });
  /** The jobs that move objects, then the consumer that queues them (stopped in reverse). */
  const startConsumersWithRekeys = () => {
    if (!rekeySettings) return startConsumers(runtime, db, storage);
    const rekeyDeps = { db, storage, logger: runtime.logger.child({ component: 'rekeys' }) };
    const rekeyJobs = startRekeyJobs(
      rekeySettings,
      async (challengeId, requestedAt) =>
        void (await runRekeyJob(rekeyDeps, challengeId, requestedAt)),
      rekeyDeps.logger,
    );
    runtime.lifecycle.onStop('rekey jobs', () => rekeyJobs.close());
    return startConsumers(runtime, db, storage, rekeyJobs.request);
  };
  const proofUploads = options.challenge
    ? createProofUploadClient({
        baseUrl: options.challenge.internalUrl,
        token: options.challenge.internalApiToken,
      })
    : null;
  const extend = (base: RequestContext): MediaContext => ({
    ...base,
    db,
    storage,
    videoQueue,
    profiles,
    proofUploads,
    thumbnails: createThumbnailLoader(db, storage, base.user),
  });
  // The multipart route executes against the same schema and resolvers as /graphql, plus the
  // upload-only updateProfile that it hands on to identity.
  const schema = buildSubgraphSchema([
    {
      typeDefs: parse(readFileSync(schemaFile, 'utf8')),
      resolvers: resolvers as GraphQLResolverMap<unknown>,
    },
    {
      typeDefs: parse(readFileSync(uploadSchemaFile, 'utf8')),
      resolvers: uploadResolvers as GraphQLResolverMap<unknown>,
    },
  ]);
  const app = await createServiceApp<MediaContext>({
    runtime,
    database: {
      ping: () => pingDatabase(db),
      transaction: transactionRunner(db),
      disconnect: () => db.$disconnect(),
    },
    schemaFile,
    resolvers,
    readiness: { storage: () => storage.ping() },
    extend,
    consumers: startConsumersWithRekeys,
    // Every endpoint here is one the gateway forwards to: its credential first (docs/adr/0069).
    routes: (express, { fromGateway }) => {
      ipxRoutes(createImageResizer(storage), runtime.logger, fromGateway)(express);
      express.use(
        TUS_PATH,
        fromGateway,
        tusRoutes({
          deps: (logger) => ({ db, storage, queue: videoQueue, logger, proofUploads }),
          verifier: runtime.verifier,
          checkUser: createAccessCheck(runtime.redis, runtime.authStatePrefix),
          logger: runtime.logger,
          sessionMaxAgeMs,
        }),
      );
      express.post(
        UPLOAD_PATH,
        fromGateway,
        multipartUploads({
          schema,
          verifier: runtime.verifier,
          checkUser: createAccessCheck(runtime.redis, runtime.authStatePrefix),
          extend,
          logger: runtime.logger,
        }),
      );
    },
  });
  if (options.uploadSweepIntervalMs) {
    const sweeper = startUploadSweeper(
      {
        db,
        storage,
        queue: videoQueue,
        logger: runtime.logger.child({ component: 'upload-sweep' }),
      },
      {
        intervalMs: options.uploadSweepIntervalMs,
        maxAgeMs: sessionMaxAgeMs,
        clock: options.uploadSweepClock,
      },
    );
    // Registered after the database, so it stops first.
    runtime.lifecycle.onStop('upload sweep', () => sweeper.stop());
  }
  if (processing && queue) {
    registerJobQueueMetrics(app.subgraph.metrics.registry, VIDEO_QUEUE, () => queue.depth());
    // Registered after the database, so they stop first: the worker finishes (or abandons, to be
    // picked up again by another worker) its job while the database is still there.
    runtime.lifecycle.onStop('video queue', () => queue.close());
    if (processing.worker.concurrency > 0) {
      const deps: ProcessingDeps = {
        db,
        storage,
        tools: processing.tools ?? createVideoTools(),
        settings: processing.settings,
        logger: runtime.logger.child({ component: 'video-worker' }),
      };
      const worker = startVideoWorker(
        processing.queue,
        { ...DEFAULT_WORKER_SETTINGS, ...processing.worker },
        {
          process: async (videoId, attempt) => void (await processVideo(deps, videoId, attempt)),
          gaveUp: (videoId) => giveUpOnVideo(deps, videoId),
        },
        deps.logger,
      );
      runtime.lifecycle.onStop('video worker', () => worker.close());
    }
  }
  return { ...app, db, storage, videoQueue };
}
