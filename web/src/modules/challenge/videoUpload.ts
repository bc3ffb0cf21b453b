import { print } from 'graphql';
import { appConfig } from '../../app/config';
import type { ResponseStatus } from '../../lib/graphql';
import {
  CreateChallengeVideoDocument,
  type CreateChallengeVideoMutation,
} from './graphql/ChallengeVideos';

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

export interface VideoUpload {
  result: Promise<UploadOutcome>;
  cancel: () => void;
}

export interface UploadChallengeVideoOptions {
  challengeId: string;
  file: File;
  ownVideoConfirmed: boolean;
  onProgress?: (progress: UploadProgress) => void;
  /** Milliseconds; replaceable in tests. */
  now?: () => number;
  url?: string;
}

const failed = (identifier: string, message: string | null = null): UploadOutcome => ({
  ok: false,
  cancelled: false,
  status: { success: false, identifier, message },
});

interface GraphQLAnswer {
  data?: Partial<CreateChallengeVideoMutation> | null;
  errors?: { message?: string; extensions?: { identifier?: unknown; code?: unknown } }[];
}

/** Media's answer, or the gateway's error body, as one outcome. */
function outcomeOf(status: number, body: string): UploadOutcome {
  let answer: GraphQLAnswer | null = null;
  try {
    answer = JSON.parse(body) as GraphQLAnswer;
  } catch {
    answer = null;
  }
  const result = answer?.data?.createChallengeVideo;
  if (result) {
    return result.status.success
      ? { ok: true, id: result.id ?? null }
      : failed(result.status.identifier ?? 'challenge_video_upload_failed', result.status.message);
  }
  const error = answer?.errors?.[0];
  if (error) {
    const identifier = error.extensions?.identifier ?? error.extensions?.code;
    return failed(
      typeof identifier === 'string' ? identifier.toLowerCase() : 'challenge_video_upload_failed',
      error.message ?? null,
    );
  }
  if (status === 413) return failed('upload_error', TOO_LARGE_MESSAGE);
  return failed('challenge_video_upload_failed');
}

/**
 * Sends the proof as a GraphQL multipart request (operations, map, then the file: spec section
 * 7, docs/adr/0034) to the gateway's /graphql with XMLHttpRequest, whose upload events give the
 * progress that fetch cannot. The session cookie goes along (same origin); the
 * `apollo-require-preflight` header marks the request as not a simple cross-site form post.
 */
export function uploadChallengeVideo({
  challengeId,
  file,
  ownVideoConfirmed,
  onProgress,
  now = () => Date.now(),
  url = appConfig.graphqlPath,
}: UploadChallengeVideoOptions): VideoUpload {
  const xhr = new XMLHttpRequest();
  let cancelled = false;
  const result = new Promise<UploadOutcome>((resolve) => {
    const body = new FormData();
    body.append(
      'operations',
      JSON.stringify({
        operationName: 'CreateChallengeVideo',
        query: print(CreateChallengeVideoDocument),
        variables: { input: { challengeId, file: null, ownVideoConfirmed } },
      }),
    );
    body.append('map', JSON.stringify({ '0': ['variables.input.file'] }));
    body.append('0', file, file.name);

    const started = now();
    xhr.upload.onprogress = (event) => {
      if (!onProgress) return;
      const total = event.lengthComputable && event.total > 0 ? event.total : file.size;
      const loaded = Math.min(event.loaded, total);
      const elapsed = (now() - started) / 1000;
      const rate = elapsed > 0 ? loaded / elapsed : 0;
      onProgress({
        loaded,
        total,
        percent: total > 0 ? Math.floor((loaded / total) * 100) : 0,
        secondsLeft: rate > 0 ? Math.ceil((total - loaded) / rate) : null,
      });
    };
    xhr.onload = () => resolve(outcomeOf(xhr.status, xhr.responseText));
    xhr.onerror = () => resolve(failed('challenge_video_upload_failed'));
    xhr.ontimeout = () => resolve(failed('challenge_video_upload_failed'));
    xhr.onabort = () =>
      resolve(cancelled ? { ok: false, cancelled: true } : failed('upload_error'));

    xhr.open('POST', url);
    xhr.withCredentials = true;
    xhr.setRequestHeader('apollo-require-preflight', 'true');
    xhr.setRequestHeader('accept', 'application/json');
    xhr.send(body);
  });
  return {
    result,
    cancel: () => {
      cancelled = true;
      xhr.abort();
    },
  };
}
