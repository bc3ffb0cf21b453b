import { z } from 'zod';
import { loadEnv, s3Env, subgraphEnv } from '@challenge/kit';
import type { StorageConfig } from './data/storage.ts';

/** The one place media reads its environment. */
export const envSchema = subgraphEnv.extend({
  ...s3Env.shape,
  /** Origin browsers reach the store at, when it is not S3_ENDPOINT (compose, Kubernetes). */
  S3_PUBLIC_ENDPOINT: z.url().optional(),
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
