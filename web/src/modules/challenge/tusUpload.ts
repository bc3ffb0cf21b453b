import type { ResponseStatus } from '../../lib/graphql';
import { TOO_LARGE_MESSAGE, type UploadOutcome, type UploadProgress } from './videoUpload';

/**
 * A small client of the tus 1.0 protocol (creation, termination) for proof videos, against the
 * gateway's `/api/uploads/tus` (docs/adr/0036, docs/adr/0051). It creates an upload with the
 * challenge in its metadata, sends the file in PATCH requests of 8 MiB (media stores parts of
 * exactly that size, so every offset it answers is a chunk boundary), and after a network error
 * or a 5xx asks HEAD for the offset the server kept and goes on from there, with backoff. The
 * upload's URL is remembered per challenge and file, so a reload or a second try resumes.
 */

export const TUS_ENDPOINT = '/api/uploads/tus';
/** Media's part size (services/media/src/data/storage.ts, UPLOAD_PART_BYTES). */
export const TUS_CHUNK_BYTES = 8 * 1024 * 1024;
/** Waits before the retries after a lost connection or a server error: about two minutes. */
export const TUS_RETRY_DELAYS_MS = [1_000, 2_000, 4_000, 8_000, 15_000, 30_000, 30_000, 30_000];
/** A PATCH whose bytes stop moving this long counts as a lost connection (mobile networks). */
export const TUS_STALL_MS = 60_000;
/** The time left is estimated from the rate over this last stretch (a moving average). */
const RATE_WINDOW_MS = 20_000;
const STORAGE_PREFIX = 'challenge.tus:';

export interface TusRequest {
  method: 'POST' | 'HEAD' | 'PATCH' | 'DELETE';
  url: string;
  headers: Record<string, string>;
  body?: Blob;
  /** Bytes of `body` sent so far. */
  onProgress?: (sent: number) => void;
}

export interface TusResponse {
  status: number;
  header(name: string): string | null;
  body: string;
}

/** Rejections of `TusTransport.send`: the connection failed (retried) or we aborted it. */
export class TusNetworkError extends Error {}
export class TusAbortedError extends Error {}

export interface TusTransport {
  send(request: TusRequest): { response: Promise<TusResponse>; abort: () => void };
}

/**
 * XMLHttpRequest: its upload events give the progress within a chunk, which fetch cannot. The
 * session cookie goes along (same origin) and the browser adds Origin or Referer (the gateway's
 * check against cross-site requests).
 */
export const xhrTransport: TusTransport = {
  send(request) {
    const xhr = new XMLHttpRequest();
    const response = new Promise<TusResponse>((resolve, reject) => {
      xhr.open(request.method, request.url);
      xhr.withCredentials = true;
      for (const [name, value] of Object.entries(request.headers)) {
        xhr.setRequestHeader(name, value);
      }
      if (request.onProgress) {
        const report = request.onProgress;
        xhr.upload.onprogress = (event) => report(event.loaded);
      }
      xhr.onload = () =>
        resolve({
          status: xhr.status,
          header: (name) => xhr.getResponseHeader(name),
          body: xhr.responseText,
        });
      xhr.onerror = () => reject(new TusNetworkError('connection failed'));
      xhr.ontimeout = () => reject(new TusNetworkError('timed out'));
      xhr.onabort = () => reject(new TusAbortedError('aborted'));
      xhr.send(request.body ?? null);
    });
    return { response, abort: () => xhr.abort() };
  },
};

/** What the dialog shows besides the bytes: the connection was lost and a retry is waiting. */
export interface TusProgress extends UploadProgress {
  retrying: boolean;
}

export interface TusUploadOptions {
  challengeId: string;
  file: File;
  ownVideoConfirmed: boolean;
  onProgress?: (progress: TusProgress) => void;
  endpoint?: string;
  chunkBytes?: number;
  retryDelaysMs?: number[];
  /** See TUS_STALL_MS. */
  stallMs?: number;
  transport?: TusTransport;
  /** Where upload URLs are remembered; localStorage unless replaced (null: nowhere). */
  storage?: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'> | null;
  /** Milliseconds; replaceable in tests. */
  now?: () => number;
  /** Waits `ms`; replaceable in tests. */
  sleep?: (ms: number) => Promise<void>;
}

export interface TusUpload {
  result: Promise<UploadOutcome>;
  /** Stops and removes the upload on the server (tus termination: DELETE). */
  cancel: () => void;
  /** Stops sending but keeps the upload, to resume later (leaving the page). */
  pause: () => void;
}

/** The key an upload's URL is remembered under: challenge, file name, size, last change. */
export function tusStorageKey(
  challengeId: string,
  file: Pick<File, 'name' | 'size' | 'lastModified'>,
) {
  return `${STORAGE_PREFIX}${challengeId}:${file.name}:${file.size}:${file.lastModified}`;
}

/**
 * Forgets every upload this browser remembered to resume (logout, a failed login: spec
 * section 4); the server sweeps the abandoned uploads.
 */
export function forgetResumableUploads(): void {
  try {
    const storage = window.localStorage;
    const keys = Array.from({ length: storage.length }, (_, index) => storage.key(index));
    for (const key of keys) if (key?.startsWith(STORAGE_PREFIX)) storage.removeItem(key);
  } catch {
    // Storage refused: nothing was remembered.
  }
}

const failed = (identifier: string, message: string | null = null): UploadOutcome => ({
  ok: false,
  cancelled: false,
  status: { success: false, identifier, message } satisfies ResponseStatus,
});

/**
 * A failure after which the same file may be tried again (and resumes): a sign-in that lapsed,
 * a limit reached, a connection lost. Anything else is the server refusing the file.
 */
export function isResumableFailure(status: ResponseStatus): boolean {
  return ['unauthorized', 'too_many_requests', 'challenge_video_upload_failed'].includes(
    status.identifier ?? '',
  );
}

/** A refusal: media's `{ status }` or the gateway's `{ errors }`, by the HTTP status else. */
export function tusRefusal(response: Pick<TusResponse, 'status' | 'body'>): UploadOutcome {
  let parsed: unknown = null;
  try {
    parsed = JSON.parse(response.body);
  } catch {
    parsed = null;
  }
  const body = (parsed ?? {}) as {
    status?: { identifier?: unknown; message?: unknown };
    errors?: { message?: unknown; extensions?: { identifier?: unknown } }[];
  };
  const identifier = body.status?.identifier ?? body.errors?.[0]?.extensions?.identifier;
  const message = body.status?.message ?? body.errors?.[0]?.message;
  if (response.status === 413) return failed('upload_error', TOO_LARGE_MESSAGE);
  if (typeof identifier === 'string') {
    return failed(identifier.toLowerCase(), typeof message === 'string' ? message : null);
  }
  if (response.status === 415) return failed('invalid_file');
  if (response.status === 401) return failed('unauthorized');
  if (response.status === 429) return failed('too_many_requests');
  return failed('challenge_video_upload_failed');
}

const b64 = (value: string) => btoa(value);
const retryable = (status: number) => status >= 500 || status === 423;
/** The server no longer has the upload (swept, cancelled elsewhere): start over. */
const gone = (status: number) => status === 404 || status === 410;

function browserStorage(): TusUploadOptions['storage'] {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}

class Stopped extends Error {}

export function uploadVideoResumably({
  challengeId,
  file,
  ownVideoConfirmed,
  onProgress,
  endpoint = TUS_ENDPOINT,
  chunkBytes = TUS_CHUNK_BYTES,
  retryDelaysMs = TUS_RETRY_DELAYS_MS,
  stallMs = TUS_STALL_MS,
  transport = xhrTransport,
  storage = browserStorage(),
  now = () => Date.now(),
  sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
}: TusUploadOptions): TusUpload {
  const key = tusStorageKey(challengeId, file);
  const remembered = {
    get: () => {
      try {
        return storage?.getItem(key) ?? null;
      } catch {
        return null;
      }
    },
    set: (url: string) => {
      try {
        storage?.setItem(key, url);
      } catch {
        // Full or forbidden: this try still works, only a later one starts over.
      }
    },
    forget: () => {
      try {
        storage?.removeItem(key);
      } catch {
        // As above.
      }
    },
  };

  let stop: 'cancel' | 'pause' | null = null;
  let abortCurrent: (() => void) | null = null;
  let wakeUp: (() => void) | null = null;
  let url: string | null = remembered.get();

  /**
   * One request; a stop aborts it and surfaces as Stopped. A request whose bytes stop moving
   * for `stallMs` is aborted and counts as a lost connection.
   */
  async function send(request: TusRequest): Promise<TusResponse> {
    if (stop) throw new Stopped();
    let stalled = false;
    let watchdog: ReturnType<typeof setTimeout> | undefined;
    const watch = () => {
      clearTimeout(watchdog);
      watchdog = setTimeout(() => {
        stalled = true;
        sent.abort();
      }, stallMs);
    };
    const sent = transport.send({
      ...request,
      headers: { 'tus-resumable': '1.0.0', ...request.headers },
      onProgress: (bytes) => {
        watch();
        request.onProgress?.(bytes);
      },
    });
    abortCurrent = sent.abort;
    watch();
    try {
      return await sent.response;
    } catch (error) {
      if (stop) throw new Stopped();
      if (stalled) throw new TusNetworkError('stalled');
      if (error instanceof TusAbortedError) throw new Stopped();
      throw error;
    } finally {
      clearTimeout(watchdog);
      abortCurrent = null;
    }
  }

  /** Waits before a retry; a stop ends the wait at once. */
  async function pauseFor(ms: number): Promise<void> {
    await Promise.race([
      sleep(ms),
      new Promise<void>((resolve) => {
        wakeUp = resolve;
      }),
    ]);
    wakeUp = null;
    if (stop) throw new Stopped();
  }

  // The moving average: (time, bytes on the server or on the wire) over the last stretch.
  let samples: { at: number; loaded: number }[] = [];
  let retrying = false;
  function report(loaded: number) {
    const at = now();
    samples.push({ at, loaded });
    while (samples.length > 2 && at - samples[0]!.at > RATE_WINDOW_MS) samples.shift();
    const first = samples[0]!;
    const span = (at - first.at) / 1000;
    const rate = span > 0 ? (loaded - first.loaded) / span : 0;
    const total = file.size;
    onProgress?.({
      loaded,
      total,
      percent: total > 0 ? Math.min(100, Math.floor((loaded / total) * 100)) : 0,
      secondsLeft: rate > 0 ? Math.ceil((total - loaded) / rate) : null,
      retrying,
    });
  }

  async function create(): Promise<string | UploadOutcome> {
    const response = await send({
      method: 'POST',
      url: endpoint,
      headers: {
        'upload-length': String(file.size),
        'upload-metadata': [
          `challengeId ${b64(challengeId)}`,
          `ownVideoConfirmed ${b64(String(ownVideoConfirmed))}`,
        ].join(','),
      },
    });
    const location = response.header('location');
    if (response.status === 201 && location) return location;
    if (retryable(response.status)) throw new TusNetworkError(`creation: ${response.status}`);
    return tusRefusal(response);
  }

  async function run(): Promise<UploadOutcome> {
    let offset: number | null = null;
    let failures = 0;
    let startedOver = false;
    for (;;) {
      try {
        if (!url) {
          const created = await create();
          if (typeof created !== 'string') return created;
          url = created;
          remembered.set(url);
          offset = 0;
        }
        if (offset === null) {
          const head = await send({ method: 'HEAD', url, headers: {} });
          if (gone(head.status) && !startedOver) {
            // Expired or removed: this file starts over, once.
            remembered.forget();
            startedOver = true;
            url = null;
            continue;
          }
          if (retryable(head.status)) throw new TusNetworkError(`HEAD: ${head.status}`);
          if (head.status !== 200 && head.status !== 204) return tusRefusal(head);
          const videoId = head.header('upload-video-id');
          if (videoId) return { ok: true, id: videoId };
          offset = Number(head.header('upload-offset'));
          if (!Number.isSafeInteger(offset) || offset < 0 || offset > file.size) {
            return failed('challenge_video_upload_failed');
          }
          retrying = false; // the server answers again
        }
        samples = [];
        report(offset);
        while (offset < file.size) {
          const from: number = offset;
          const end = Math.min(from + chunkBytes, file.size);
          const answer = await send({
            method: 'PATCH',
            url,
            headers: {
              'upload-offset': String(from),
              'content-type': 'application/offset+octet-stream',
            },
            body: file.slice(from, end),
            onProgress: (sent) => report(from + Math.min(sent, end - from)),
          });
          if (answer.status === 409) {
            // Our offset is not the server's (another tab, a lost answer): ask it. Media answers
            // 409 for nothing else; a refusal is a 403, shown below (ADR 107).
            offset = null;
            throw new TusNetworkError('offset mismatch');
          }
          if (retryable(answer.status)) throw new TusNetworkError(`PATCH: ${answer.status}`);
          if (gone(answer.status) && !startedOver) {
            // Swept or removed while we were sending: this file starts over, once.
            remembered.forget();
            startedOver = true;
            url = null;
            break;
          }
          if (answer.status !== 204) return tusRefusal(answer);
          const videoId = answer.header('upload-video-id');
          if (videoId) return { ok: true, id: videoId };
          const next = Number(answer.header('upload-offset'));
          if (!Number.isSafeInteger(next) || next <= from || next > file.size) {
            // Nothing stored (or nonsense): ask again rather than loop.
            throw new TusNetworkError('no progress');
          }
          offset = next;
          failures = 0;
        }
        if (url === null) continue;
        // All bytes are out but no video id came back: HEAD tells.
        offset = null;
        throw new TusNetworkError('no video id');
      } catch (error) {
        if (error instanceof Stopped) throw error;
        if (!(error instanceof TusNetworkError)) throw error;
        const delay = retryDelaysMs[failures];
        if (delay === undefined) return failed('challenge_video_upload_failed');
        failures += 1;
        retrying = true;
        offset = null; // the server says where to go on
        report(samples.at(-1)?.loaded ?? 0);
        await pauseFor(delay);
      }
    }
  }

  const result = run().then(
    (outcome) => {
      // A finished upload, or one the server refused, is not to be resumed. A sign-in that
      // lapsed or a limit reached can be: the URL stays.
      const keep = !outcome.ok && !outcome.cancelled && isResumableFailure(outcome.status);
      if (!keep) remembered.forget();
      return outcome;
    },
    (error: unknown): UploadOutcome => {
      if (!(error instanceof Stopped)) return failed('challenge_video_upload_failed');
      if (stop === 'pause') return { ok: false, cancelled: true };
      remembered.forget();
      if (url) {
        // Termination: the server removes the stored parts. Not awaited (the dialog closes at
        // once); a lost DELETE leaves the session to the sweep.
        void transport
          .send({ method: 'DELETE', url, headers: { 'tus-resumable': '1.0.0' } })
          .response.catch(() => undefined);
      }
      return { ok: false, cancelled: true };
    },
  );

  const halt = (how: 'cancel' | 'pause') => {
    if (stop) return;
    stop = how;
    abortCurrent?.();
    wakeUp?.();
  };
  return { result, cancel: () => halt('cancel'), pause: () => halt('pause') };
}
