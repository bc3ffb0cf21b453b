import { readFileSync } from 'node:fs';
import { buildSubgraphSchema } from '@apollo/subgraph';
import type { GraphQLResolverMap } from '@apollo/subgraph/dist/schema-helper/resolverMap.js';
import {
  createAccessCheck,
  createServiceApp,
  type RequestContext,
  type ServiceApp,
  type ServiceRuntime,
} from '@challenge/kit';
import { parse } from 'graphql';
import { createDatabase, pingDatabase, transactionRunner, type Database } from './data/db.ts';
import { createStorage, type ObjectStorage, type StorageConfig } from './data/storage.ts';
import type { MediaContext } from './context.ts';
import { createRecordingQueue, type VideoProcessingQueue } from './domain/processing-queue.ts';
import { startConsumers } from './events/consumers.ts';
import { multipartUploads, UPLOAD_PATH } from './http/multipart.ts';
import { tusRoutes, TUS_PATH } from './http/tus.ts';
import { resolvers } from './resolvers/index.ts';

export interface MediaApp extends ServiceApp {
  db: Database;
  storage: ObjectStorage;
  queue: VideoProcessingQueue;
}

export interface MediaOptions {
  /** Where uploaded videos go to be processed; default: a queue that only records them. */
  queue?: VideoProcessingQueue;
}

const schemaFile = new URL('./schema.graphql', import.meta.url);

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
  // TODO(issue 12, processing): the lead wires mediaproc's BullMQ queue here at merge.
  const queue = options.queue ?? createRecordingQueue();
  const extend = (base: RequestContext): MediaContext => ({ ...base, db, storage, queue });
  // The multipart route executes against the same schema and resolvers as /graphql.
  const schema = buildSubgraphSchema({
    typeDefs: parse(readFileSync(schemaFile, 'utf8')),
    resolvers: resolvers as GraphQLResolverMap<unknown>,
  });
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
    consumers: () => startConsumers(runtime, db),
    routes: (express) => {
      express.use(
        TUS_PATH,
        tusRoutes({
          deps: (logger) => ({ db, storage, queue, logger }),
          verifier: runtime.verifier,
          checkUser: createAccessCheck(runtime.redis, runtime.authStatePrefix),
          logger: runtime.logger,
        }),
      );
      express.post(
        UPLOAD_PATH,
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
  return { ...app, db, storage, queue };
}
