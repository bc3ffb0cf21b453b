import type { Readable } from 'node:stream';
import { Client, S3Error } from 'minio';

/** Where the bytes live: any S3-compatible store (MinIO locally). */
export interface StorageConfig {
  /** e.g. http://127.0.0.1:39000; no path. */
  endpoint: string;
  region: string;
  accessKey: string;
  secretKey: string;
  bucket: string;
}

export interface StoredObject {
  size: number;
  etag: string;
  contentType: string | null;
  lastModified: Date;
}

/** The object-storage adapter: the only code in media that talks to S3. */
export interface ObjectStorage {
  readonly bucket: string;
  /** Creates the bucket when it does not exist yet (safe to run at every start, and concurrently). */
  ensureBucket(): Promise<void>;
  putObject(key: string, body: Buffer | Readable, contentType: string): Promise<void>;
  /** Uploads a local file (the processing worker's outputs), streamed from disk. */
  putFile(key: string, file: string, contentType: string): Promise<void>;
  /** The object's bytes as a stream; rejects when there is no such object. */
  getObject(key: string): Promise<Readable>;
  /** The keys under a prefix (all of them: meant for small prefixes). */
  listKeys(prefix: string): Promise<string[]>;
  /** The object's metadata, or null when there is no such object. */
  statObject(key: string): Promise<StoredObject | null>;
  /**
   * A URL that anyone holding it can GET for `seconds`. `downloadAs` makes the response an
   * attachment with that file name instead of inline content.
   */
  presignedGetUrl(key: string, seconds: number, options?: { downloadAs?: string }): Promise<string>;
  removeObject(key: string): Promise<void>;
  /** Readiness: throws unless the store answers and the bucket exists. */
  ping(): Promise<void>;
}

/** S3 caps presigned URLs at seven days. */
const MAX_PRESIGN_SECONDS = 7 * 24 * 60 * 60;

const s3Code = (error: unknown) => (error instanceof S3Error ? error.code : undefined);

function clientFor(config: StorageConfig): Client {
  const url = new URL(config.endpoint);
  if (url.pathname !== '/' || url.search)
    throw new Error('S3 endpoint must be a bare origin, without a path');
  return new Client({
    endPoint: url.hostname,
    ...(url.port ? { port: Number(url.port) } : {}),
    useSSL: url.protocol === 'https:',
    region: config.region,
    accessKey: config.accessKey,
    secretKey: config.secretKey,
    // MinIO and most self-hosted stores serve buckets as paths, not as subdomains.
    pathStyle: true,
  });
}

export function createStorage(config: StorageConfig): ObjectStorage {
  const client = clientFor(config);
  const { bucket } = config;
  return {
    bucket,
    async ensureBucket() {
      if (await client.bucketExists(bucket)) return;
      try {
        await client.makeBucket(bucket, config.region);
      } catch (error) {
        // Another replica (or test file) created it between our check and our create.
        if (s3Code(error) !== 'BucketAlreadyOwnedByYou') throw error;
      }
    },
    async putObject(key, body, contentType) {
      await client.putObject(bucket, key, body, Buffer.isBuffer(body) ? body.length : undefined, {
        'Content-Type': contentType,
      });
    },
    async putFile(key, file, contentType) {
      await client.fPutObject(bucket, key, file, { 'Content-Type': contentType });
    },
    getObject(key) {
      return client.getObject(bucket, key);
    },
    async listKeys(prefix) {
      const keys: string[] = [];
      for await (const item of client.listObjectsV2(bucket, prefix, true)) {
        if (item.name) keys.push(item.name);
      }
      return keys;
    },
    async statObject(key) {
      try {
        const stat = await client.statObject(bucket, key);
        const contentType = stat.metaData['content-type'];
        return {
          size: stat.size,
          etag: stat.etag,
          contentType: typeof contentType === 'string' ? contentType : null,
          lastModified: stat.lastModified,
        };
      } catch (error) {
        if (s3Code(error) === 'NotFound' || s3Code(error) === 'NoSuchKey') return null;
        throw error;
      }
    },
    presignedGetUrl(key, seconds, options = {}) {
      if (!Number.isInteger(seconds) || seconds < 1 || seconds > MAX_PRESIGN_SECONDS) {
        throw new RangeError(
          `a presigned URL lives 1 to ${MAX_PRESIGN_SECONDS} seconds, not ${seconds}`,
        );
      }
      const headers: Record<string, string> = options.downloadAs
        ? {
            'response-content-disposition': `attachment; filename="${options.downloadAs.replace(/["\\\r\n]/g, '')}"`,
          }
        : {};
      return client.presignedGetObject(bucket, key, seconds, headers);
    },
    async removeObject(key) {
      await client.removeObject(bucket, key);
    },
    async ping() {
      if (!(await client.bucketExists(bucket))) throw new Error(`bucket ${bucket} does not exist`);
    },
  };
}
