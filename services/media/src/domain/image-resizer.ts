import type { Readable } from 'node:stream';
import { toWebp } from '../data/images.ts';
import type { ObjectStorage } from '../data/storage.ts';
import { renditionEtag, renditionKey, type ImageRequest } from './images.ts';

/**
 * Makes (once) and serves (from the bucket) the renditions of `/_ipx` (docs/adr/0039). Work is
 * bounded three ways: the bounded set of sizes (images.ts), at most `maxConcurrent` encodes at
 * a time in this process, and one encode per rendition however many ask for it at once.
 */

export type Rendition =
  | { kind: 'hit'; etag: string; size: number; body: () => Promise<Readable> }
  | { kind: 'miss'; etag: string; body: Buffer }
  | { kind: 'not_found' }
  | { kind: 'unsupported' };

export interface ImageResizerOptions {
  maxConcurrent?: number;
  /** A source larger than this is refused rather than decoded. */
  maxSourceBytes?: number;
}

export interface ImageResizer {
  render(request: ImageRequest): Promise<Rendition>;
}

class UnsupportedImage extends Error {}

async function readAll(stream: Readable, limit: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of stream) {
    total += (chunk as Buffer).length;
    if (total > limit) {
      stream.destroy();
      throw new UnsupportedImage('source too large');
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

export function createImageResizer(
  storage: ObjectStorage,
  options: ImageResizerOptions = {},
): ImageResizer {
  const maxConcurrent = options.maxConcurrent ?? 2;
  const maxSourceBytes = options.maxSourceBytes ?? 15 * 1024 * 1024;
  const inFlight = new Map<string, Promise<Buffer>>();
  let running = 0;
  const waiting: (() => void)[] = [];

  async function withSlot<T>(work: () => Promise<T>): Promise<T> {
    if (running >= maxConcurrent) await new Promise<void>((resolve) => waiting.push(resolve));
    running += 1;
    try {
      return await work();
    } finally {
      running -= 1;
      waiting.shift()?.();
    }
  }

  async function encode(request: ImageRequest, key: string): Promise<Buffer> {
    const source = await readAll(await storage.getObject(request.sourceKey), maxSourceBytes);
    let body: Buffer;
    try {
      body = await toWebp(source, { width: request.width, quality: request.quality });
    } catch {
      throw new UnsupportedImage('not an image sharp can read');
    }
    await storage.putObject(key, body, 'image/webp');
    return body;
  }

  return {
    async render(request) {
      const source = await storage.statObject(request.sourceKey);
      if (!source) return { kind: 'not_found' };
      if (source.size > maxSourceBytes) return { kind: 'unsupported' };
      const key = renditionKey(request, source.etag);
      const etag = renditionEtag(key);
      const cached = await storage.statObject(key);
      if (cached) {
        return { kind: 'hit', etag, size: cached.size, body: () => storage.getObject(key) };
      }
      let pending = inFlight.get(key);
      if (!pending) {
        pending = withSlot(() => encode(request, key)).finally(() => inFlight.delete(key));
        inFlight.set(key, pending);
      }
      try {
        return { kind: 'miss', etag, body: await pending };
      } catch (error) {
        if (error instanceof UnsupportedImage) return { kind: 'unsupported' };
        throw error;
      }
    },
  };
}
