import type { Readable } from 'node:stream';
import { Client, CopyDestinationOptions, CopySourceOptions, S3Error } from 'minio';

/** Where the bytes live: any S3-compatible store (MinIO locally). */
export interface StorageConfig {
  /** e.g. http://127.0.0.1:39000; no path. */
  endpoint: string;
  region: string;
  accessKey: string;
  secretKey: string;
  bucket: string;
  /**
   * Origin the browser reaches the store at (S3_PUBLIC_ENDPOINT), when it differs from
   * `endpoint` (compose, Kubernetes): signed URLs are signed for this host.
   */
  publicEndpoint?: string;
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
  /**
   * Streams `body` into the object as an S3 multipart upload, holding at most two parts
   * (UPLOAD_PART_BYTES each) in memory; a body that fails (too large, wrong type, a cut
   * connection) aborts the multipart upload, so that no object and no orphaned parts remain.
   * Answers the number of bytes stored.
   */
  uploadStream(key: string, body: AsyncIterable<Buffer>, contentType: string): Promise<number>;
  /** The object's metadata, or null when there is no such object. */
  statObject(key: string): Promise<StoredObject | null>;
  /**
   * A URL that anyone holding it can GET for `seconds`. `downloadAs` makes the response an
   * attachment with that file name instead of inline content.
   */
  presignedGetUrl(key: string, seconds: number, options?: { downloadAs?: string }): Promise<string>;
  removeObject(key: string): Promise<void>;
  /**
   * Copies an object inside the bucket, server-side (S3 CopyObject: no bytes through media), with
   * its content type. Answers false when there is no object at `from`.
   */
  copyObject(from: string, to: string): Promise<boolean>;
  /** The steps of an S3 multipart upload, for uploads that span requests (resumable). */
  startMultipart(key: string, contentType: string): Promise<string>;
  uploadPart(key: string, uploadId: string, part: number, payload: Buffer): Promise<string>;
  completeMultipart(
    key: string,
    uploadId: string,
    parts: { part: number; etag: string }[],
  ): Promise<void>;
  /** Removes the upload's stored parts; an upload that is gone already counts as aborted. */
  abortMultipart(key: string, uploadId: string): Promise<void>;
  /** Keys and sizes of the objects under `prefix`. */
  listObjects(prefix: string): Promise<{ key: string; size: number }[]>;
  /** Keys of multipart uploads under `prefix` that were neither completed nor aborted. */
  listIncompleteUploads(prefix: string): Promise<string[]>;
  /** Readiness: throws unless the store answers and the bucket exists. */
  ping(): Promise<void>;
}

/** S3's smallest part (but the last) is 5 MiB; 8 MiB keeps memory low and requests few. */
export const UPLOAD_PART_BYTES = 8 * 1024 * 1024;

/** S3 caps presigned URLs at seven days. */
const MAX_PRESIGN_SECONDS = 7 * 24 * 60 * 60;

/**
 * Signed URLs are signed as of the start of their window (docs/adr/0081): every answer within a
 * window names the same URL for an object, so the browser's cached copy serves it again (a
 * thumbnail on every list, a video watched twice) instead of a new URL per answer. A URL then
 * lives its lifetime plus up to one window; the browser may keep its copy (privately) until then.
 */
export const PRESIGN_WINDOW_SECONDS = 30 * 60;

const s3Code = (error: unknown) => (error instanceof S3Error ? error.code : undefined);

function clientFor(config: StorageConfig, endpoint = config.endpoint): Client {
  const url = new URL(endpoint);
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

export interface StorageOptions {
  /** The clock signed URLs are windowed by (tests). */
  now?: () => Date;
}

export function createStorage(
  config: StorageConfig,
  { now = () => new Date() }: StorageOptions = {},
): ObjectStorage {
  const client = clientFor(config);
  // Signing is local computation (the region is given): no request ever goes to the public host.
  const signer = config.publicEndpoint ? clientFor(config, config.publicEndpoint) : client;
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
    async uploadStream(key, body, contentType) {
      let uploadId: string | null = null;
      let parts = 0;
      let partFailure: unknown = null;
      const inFlight = new Set<Promise<void>>();
      const etags: { part: number; etag: string }[] = [];
      let pending: Buffer[] = [];
      let pendingBytes = 0;
      let total = 0;
      const sendPart = async (payload: Buffer) => {
        uploadId ??= await client.initiateNewMultipartUpload(bucket, key, {
          'Content-Type': contentType,
        });
        const part = ++parts;
        const upload: Promise<void> = client
          .uploadPart(
            {
              bucketName: bucket,
              objectName: key,
              uploadID: uploadId,
              partNumber: part,
              headers: {},
            },
            payload,
          )
          .then(
            ({ etag }) => void etags.push({ part, etag }),
            (error: unknown) => void (partFailure ??= error),
          )
          .finally(() => inFlight.delete(upload));
        inFlight.add(upload);
        // Two parts on the wire at most: reading the body waits (back-pressure) until one is done.
        if (inFlight.size >= 2) await Promise.race(inFlight);
        if (partFailure) throw partFailure;
      };
      try {
        for await (const chunk of body) {
          pending.push(chunk);
          pendingBytes += chunk.length;
          total += chunk.length;
          if (pendingBytes >= UPLOAD_PART_BYTES) {
            const payload = Buffer.concat(pending, pendingBytes);
            pending = [];
            pendingBytes = 0;
            await sendPart(payload);
          }
        }
        const rest = Buffer.concat(pending, pendingBytes);
        if (uploadId === null) {
          await client.putObject(bucket, key, rest, rest.length, { 'Content-Type': contentType });
          return total;
        }
        if (rest.length > 0) await sendPart(rest);
        await Promise.all(inFlight);
        if (partFailure) throw partFailure;
        etags.sort((a, b) => a.part - b.part);
        await client.completeMultipartUpload(bucket, key, uploadId, etags);
        return total;
      } catch (error) {
        await Promise.allSettled(inFlight);
        if (uploadId !== null) {
          await client.abortMultipartUpload(bucket, key, uploadId).catch(() => undefined);
        }
        throw error;
      }
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
      const windowMs = PRESIGN_WINDOW_SECONDS * 1000;
      const signedAt = new Date(Math.floor(now().getTime() / windowMs) * windowMs);
      // At least `seconds` from any moment of the window; never beyond what S3 allows.
      const lifetime = Math.min(seconds + PRESIGN_WINDOW_SECONDS, MAX_PRESIGN_SECONDS);
      const expires = new Date(signedAt.getTime() + lifetime * 1000);
      const headers: Record<string, string> = {
        // The content may be a hidden challenge's: the browser's cache only, until the URL ends.
        'response-cache-control': 'private',
        'response-expires': expires.toUTCString(),
        ...(options.downloadAs
          ? {
              'response-content-disposition': `attachment; filename="${options.downloadAs.replace(/["\\\r\n]/g, '')}"`,
            }
          : {}),
      };
      return signer.presignedGetObject(bucket, key, lifetime, headers, signedAt);
    },
    async removeObject(key) {
      await client.removeObject(bucket, key);
    },
    async copyObject(from, to) {
      try {
        await client.copyObject(
          new CopySourceOptions({ Bucket: bucket, Object: from }),
          new CopyDestinationOptions({ Bucket: bucket, Object: to }),
        );
        return true;
      } catch (error) {
        if (s3Code(error) === 'NoSuchKey' || s3Code(error) === 'NotFound') return false;
        throw error;
      }
    },
    startMultipart(key, contentType) {
      return client.initiateNewMultipartUpload(bucket, key, { 'Content-Type': contentType });
    },
    async uploadPart(key, uploadId, part, payload) {
      const { etag } = await client.uploadPart(
        { bucketName: bucket, objectName: key, uploadID: uploadId, partNumber: part, headers: {} },
        payload,
      );
      return etag;
    },
    async completeMultipart(key, uploadId, parts) {
      await client.completeMultipartUpload(bucket, key, uploadId, parts);
    },
    async abortMultipart(key, uploadId) {
      try {
        await client.abortMultipartUpload(bucket, key, uploadId);
      } catch (error) {
        // Aborted (or completed) before: nothing is left to remove.
        if (s3Code(error) !== 'NoSuchUpload') throw error;
      }
    },
    async listObjects(prefix) {
      const found: { key: string; size: number }[] = [];
      for await (const item of client.listObjectsV2(bucket, prefix, true)) {
        if (item.name) found.push({ key: item.name, size: item.size });
      }
      return found;
    },
    async listIncompleteUploads(prefix) {
      const found: string[] = [];
      for await (const item of client.listIncompleteUploads(bucket, prefix, true)) {
        found.push(item.key);
      }
      return found;
    },
    async ping() {
      if (!(await client.bucketExists(bucket))) throw new Error(`bucket ${bucket} does not exist`);
    },
  };
}
