import type { ResponseStatus } from '../../lib/graphql';

// What the web's upload (tus, tusUpload.ts) and its dialog share: the checks before sending and
// the outcome. The GraphQL multipart request stays for API clients (ADR 34); the web sends tus.

/**
 * The spec's limit (section 5) as media counts it (500,000,000 bytes, ADR 34); the server
 * decides, this only spares a doomed upload.
 */
export const MAX_VIDEO_BYTES = 500 * 1000 * 1000;

/** The server's text when a stream passes the limit (media's sniff and tus paths). */
export const TOO_LARGE_MESSAGE = 'File is too large';

const VIDEO_TYPES = ['video/mp4', 'video/quicktime', 'video/webm'];
const VIDEO_EXTENSIONS = ['.mp4', '.mov', '.webm'];

/** What the file picker offers. */
export const VIDEO_ACCEPT = [...VIDEO_TYPES, ...VIDEO_EXTENSIONS].join(',');

export type VideoFileProblem = 'type' | 'size' | null;

/**
 * A first look at a picked file: its declared type (or, when the browser gives none, its name)
 * and its size. Media reads the real type from the content.
 */
export function videoFileProblem(file: Pick<File, 'name' | 'type' | 'size'>): VideoFileProblem {
  const name = file.name.toLowerCase();
  const typeOk = file.type
    ? VIDEO_TYPES.includes(file.type.toLowerCase())
    : VIDEO_EXTENSIONS.some((extension) => name.endsWith(extension));
  if (!typeOk) return 'type';
  if (file.size > MAX_VIDEO_BYTES) return 'size';
  return null;
}

export interface UploadProgress {
  loaded: number;
  total: number;
  /** 0 to 100, whole. */
  percent: number;
  /** Estimated from the average rate so far; null until there is one. */
  secondsLeft: number | null;
}

export type UploadOutcome =
  | { ok: true; id: string | null }
  | { ok: false; cancelled: true }
  | { ok: false; cancelled: false; status: ResponseStatus };
