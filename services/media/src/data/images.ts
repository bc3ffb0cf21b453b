import sharp from 'sharp';
import { DHASH_HEIGHT, DHASH_WIDTH } from '../domain/fingerprint.ts';

/**
 * The sharp adapter: the only code in media that decodes or encodes images. Inputs are bounded
 * (sharp refuses more than `MAX_INPUT_PIXELS`), and libvips runs on at most two threads so that
 * one resize cannot take the whole machine.
 */

/** 50 megapixels: far above any avatar or video frame, far below a decompression bomb. */
export const MAX_INPUT_PIXELS = 50_000_000;

sharp.concurrency(2);
// Cached decoded images would hold memory for pictures we rarely see twice.
sharp.cache(false);

export interface FrameSample {
  /** The 9 x 8 grey pixels of the dHash. */
  grid: Uint8Array;
  /** Standard deviation of the grey values (0-255). */
  stdev: number;
}

export async function sampleFrame(file: string): Promise<FrameSample> {
  const grey = sharp(file, { limitInputPixels: MAX_INPUT_PIXELS }).greyscale();
  const [grid, stats] = await Promise.all([
    grey
      .clone()
      .resize(DHASH_WIDTH, DHASH_HEIGHT, { fit: 'fill', kernel: 'cubic' })
      .raw()
      .toBuffer(),
    grey.clone().resize(64, 64, { fit: 'fill' }).stats(),
  ]);
  return { grid: new Uint8Array(grid), stdev: stats.channels[0]?.stdev ?? 0 };
}

export interface WebpOptions {
  /** Resize to this width (never wider than the source); the height follows the aspect ratio. */
  width?: number;
  quality: number;
}

/** What a source may be: raster formats only (SVG could reference other files or URLs). */
const RASTER_FORMATS = new Set(['jpeg', 'png', 'webp']);

export class UnsupportedImageError extends Error {
  constructor(format: string | undefined) {
    super(`not a JPEG, PNG or WebP image (${format ?? 'unknown'})`);
    this.name = 'UnsupportedImageError';
  }
}

/**
 * Re-encodes a JPEG, PNG or WebP image (file or bytes) as WebP; metadata (EXIF, GPS) is not
 * carried over. Anything else rejects with UnsupportedImageError.
 */
export async function toWebp(input: string | Buffer, options: WebpOptions): Promise<Buffer> {
  const source = sharp(input, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error' });
  const { format } = await source.metadata().catch(() => ({ format: undefined }));
  if (!format || !RASTER_FORMATS.has(format)) throw new UnsupportedImageError(format);
  let image = source.rotate();
  if (options.width) image = image.resize({ width: options.width, withoutEnlargement: true });
  return image.webp({ quality: options.quality }).toBuffer();
}

/** Avatars are stored at most this many pixels wide and high (docs/adr/0049). */
export const AVATAR_MAX_SIDE = 1024;

/** Why an avatar could not be re-encoded. */
export class AvatarImageError extends Error {
  constructor(readonly reason: 'not_an_image' | 'too_many_pixels') {
    super(reason);
    this.name = 'AvatarImageError';
  }
}

/**
 * An uploaded avatar (JPEG or PNG as sharp reads it, whatever its first bytes claimed) as WebP:
 * turned upright by its EXIF orientation, at most AVATAR_MAX_SIDE on each side, and without any
 * metadata (EXIF, GPS, XMP, ICC: sharp writes none unless asked). Decompression bombs stop at
 * MAX_INPUT_PIXELS before they are decoded.
 */
export async function reencodeAvatar(bytes: Buffer): Promise<Buffer> {
  const source = sharp(bytes, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error' });
  const meta = await source.metadata().catch(() => null);
  if (!meta || (meta.format !== 'jpeg' && meta.format !== 'png')) {
    throw new AvatarImageError('not_an_image');
  }
  if ((meta.width ?? 0) * (meta.height ?? 0) > MAX_INPUT_PIXELS) {
    throw new AvatarImageError('too_many_pixels');
  }
  try {
    return await source
      .rotate()
      .resize(AVATAR_MAX_SIDE, AVATAR_MAX_SIDE, { fit: 'inside', withoutEnlargement: true })
      .webp({ quality: 85 })
      .toBuffer();
  } catch {
    // A header that reads but pixels that do not decode (truncated, corrupt).
    throw new AvatarImageError('not_an_image');
  }
}
