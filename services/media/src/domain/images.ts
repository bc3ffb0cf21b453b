import { createHash } from 'node:crypto';

/**
 * Image resizing in the spirit of the spec's `/_ipx` path (docs/adr/0039):
 * `/_ipx/<modifiers>/<source key>`, modifiers `w_<width>`, `f_webp`, `q_<quality>` joined by `&`
 * or `,`. Only a bounded set of widths and qualities exists, so one source has at most
 * IPX_WIDTHS x IPX_QUALITIES renditions: each is made once and then served from the cache.
 */

/** Every width a page asks for at density 1, and its double for density 2. */
export const IPX_WIDTHS = [
  16, 24, 32, 48, 64, 96, 128, 192, 256, 320, 384, 512, 640, 768, 1024, 1280, 1536, 2048,
] as const;
export const IPX_QUALITIES = [50, 60, 70, 80, 90] as const;
export const IPX_DEFAULT_QUALITY = 80;

/** Only profile pictures are public images; video thumbnails go out as signed URLs. */
const SOURCE = /^avatars(\/[A-Za-z0-9_-][A-Za-z0-9_.-]{0,127}){1,4}$/;

export interface ImageRequest {
  sourceKey: string;
  width: number;
  quality: number;
  format: 'webp';
}

export type ParsedImageRequest =
  { ok: true; request: ImageRequest } | { ok: false; problem: 'bad_request' | 'not_found' };

export function parseImageRequest(modifiers: string, source: string): ParsedImageRequest {
  const bad = { ok: false, problem: 'bad_request' } as const;
  if (!SOURCE.test(source) || source.split('/').some((part) => part.startsWith('.'))) {
    return { ok: false, problem: 'not_found' };
  }
  const seen = new Map<string, string>();
  for (const modifier of modifiers.split(/[&,]/)) {
    const match = /^([a-z]+)_([a-z0-9]+)$/.exec(modifier);
    if (!match || seen.has(match[1]!)) return bad;
    seen.set(match[1]!, match[2]!);
  }
  const width = Number(seen.get('w'));
  const quality = Number(seen.get('q') ?? IPX_DEFAULT_QUALITY);
  const format = seen.get('f') ?? 'webp';
  seen.delete('w');
  seen.delete('q');
  seen.delete('f');
  if (seen.size > 0 || format !== 'webp') return bad;
  if (!(IPX_WIDTHS as readonly number[]).includes(width)) return bad;
  if (!(IPX_QUALITIES as readonly number[]).includes(quality)) return bad;
  return { ok: true, request: { sourceKey: source, width, quality, format } };
}

/**
 * Where a rendition is cached: beside its source's other renditions, named by the source's
 * version (etag), so a replaced picture gets new renditions and never an old one.
 */
export function renditionKey(request: ImageRequest, sourceEtag: string): string {
  const version = sourceEtag.replace(/[^A-Za-z0-9]/g, '').slice(0, 64) || 'none';
  return `cache/ipx/${request.sourceKey}/w${request.width}-q${request.quality}-${version}.${request.format}`;
}

/** The HTTP entity tag of a rendition. */
export function renditionEtag(key: string): string {
  return `"${createHash('sha256').update(key).digest('base64url').slice(0, 27)}"`;
}
