import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FakeXhr } from '../../test/fakeXhr';
import {
  TusNetworkError,
  tusStorageKey,
  uploadVideoResumably,
  xhrTransport,
  type TusProgress,
  type TusRequest,
  type TusResponse,
  type TusTransport,
  type TusUploadOptions,
} from './tusUpload';

/** Media's behaviour in miniature: parts of PART bytes, the offset only at part boundaries. */
const PART = 10;

interface Session {
  length: number;
  offset: number;
  metadata: Record<string, string>;
  videoId: string | null;
}

type Fault =
  | { kind: 'none' }
  | { kind: 'drop'; afterBytes: number }
  | { kind: 'status'; status: number; body?: unknown }
  | { kind: 'network' };

/** A fake tus server behind the transport: what the client sent, and faults to inject. */
class FakeTusServer implements TusTransport {
  sessions = new Map<string, Session>();
  log: { method: string; url: string; headers: Record<string, string>; bytes: number }[] = [];
  /** Faults for the next requests of a method, in order. */
  faults: Partial<Record<TusRequest['method'], Fault[]>> = {};
  /** Called as PATCH bytes "go out", with how many. */
  onBytes: (sent: number) => void = () => undefined;
  /** This many PATCHes never answer (until aborted); -1: all of them. */
  hangPatches = 0;
  private next = 1;

  send(request: TusRequest) {
    let abort: () => void = () => undefined;
    const response = new Promise<TusResponse>((resolve, reject) => {
      abort = () => reject(new Error('aborted'));
      this.log.push({
        method: request.method,
        url: request.url,
        headers: request.headers,
        bytes: request.body?.size ?? 0,
      });
      const fault = this.faults[request.method]?.shift();
      if (fault?.kind === 'network') return reject(new TusNetworkError('down'));
      if (fault?.kind === 'status') return resolve(answer(fault.status, {}, fault.body));
      if (request.method === 'PATCH' && this.hangPatches !== 0) {
        this.hangPatches -= 1;
        return; // until aborted
      }
      resolve(this.handle(request, fault));
    });
    return { response, abort: () => abort() };
  }

  private handle(request: TusRequest, fault: Fault | undefined): TusResponse {
    if (request.headers['tus-resumable'] !== '1.0.0') return answer(412);
    if (request.method === 'POST') {
      const url = `/api/uploads/tus/s-${this.next++}`;
      const metadata = Object.fromEntries(
        request.headers['upload-metadata']!.split(',').map((pair) => {
          const [key, value] = pair.split(' ');
          return [key!, atob(value!)];
        }),
      );
      const length = Number(request.headers['upload-length']);
      this.sessions.set(url, { length, offset: 0, metadata, videoId: null });
      return answer(201, { location: url });
    }
    const session = this.sessions.get(request.url);
    if (!session) return answer(404);
    if (request.method === 'HEAD') {
      return answer(200, {
        'upload-offset': String(session.offset),
        'upload-length': String(session.length),
        ...(session.videoId ? { 'upload-video-id': session.videoId } : {}),
      });
    }
    if (request.method === 'DELETE') {
      this.sessions.delete(request.url);
      return answer(204);
    }
    // PATCH
    if (Number(request.headers['upload-offset']) !== session.offset) return answer(409);
    const size = request.body!.size;
    const arrived = fault?.kind === 'drop' ? Math.min(fault.afterBytes, size) : size;
    this.onBytes(arrived);
    request.onProgress?.(arrived);
    const reachesEnd = session.offset + arrived === session.length;
    // Whole parts are kept; the last bytes of the file complete it.
    session.offset += reachesEnd ? arrived : Math.floor(arrived / PART) * PART;
    if (fault?.kind === 'drop') throw new TusNetworkError('connection cut');
    if (session.offset === session.length) session.videoId = 'video-1';
    return answer(204, {
      'upload-offset': String(session.offset),
      ...(session.videoId ? { 'upload-video-id': session.videoId } : {}),
    });
  }

  requests(method?: string) {
    return this.log.filter((entry) => !method || entry.method === method);
  }
}

function answer(status: number, headers: Record<string, string> = {}, body?: unknown): TusResponse {
  return {
    status,
    header: (name) => headers[name.toLowerCase()] ?? null,
    body: body === undefined ? '' : JSON.stringify(body),
  };
}

function memoryStorage() {
  const items = new Map<string, string>();
  return {
    items,
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => void items.set(key, value),
    removeItem: (key: string) => void items.delete(key),
  };
}

const video = (size: number) =>
  new File([new Uint8Array(size)], 'proof.mp4', { type: 'video/mp4', lastModified: 1_700_000 });

let server: FakeTusServer;
let storage: ReturnType<typeof memoryStorage>;
let waits: number[];

beforeEach(() => {
  server = new FakeTusServer();
  storage = memoryStorage();
  waits = [];
});

function start(file: File, options: Partial<TusUploadOptions> = {}) {
  const seen: TusProgress[] = [];
  const upload = uploadVideoResumably({
    challengeId: 'c-1',
    file,
    ownVideoConfirmed: true,
    transport: server,
    storage,
    chunkBytes: 2 * PART,
    retryDelaysMs: [100, 200, 400],
    sleep: async (ms) => void waits.push(ms),
    onProgress: (progress) => seen.push(progress),
    ...options,
  });
  return { upload, seen };
}

describe('uploadVideoResumably', () => {
  it('creates the upload with its metadata, then PATCHes chunks at the offsets the server answers', async () => {
    const file = video(45);
    const { upload, seen } = start(file);
    expect(await upload.result).toEqual({ ok: true, id: 'video-1' });
    const [create, ...patches] = server.log;
    expect(create).toMatchObject({ method: 'POST', url: '/api/uploads/tus' });
    expect(create!.headers).toMatchObject({ 'tus-resumable': '1.0.0', 'upload-length': '45' });
    expect(server.sessions.get('/api/uploads/tus/s-1')!.metadata).toEqual({
      challengeId: 'c-1',
      ownVideoConfirmed: 'true',
    });
    expect(patches.map((entry) => [entry.headers['upload-offset'], entry.bytes])).toEqual([
      ['0', 20],
      ['20', 20],
      ['40', 5],
    ]);
    expect(patches[0]!.headers['content-type']).toBe('application/offset+octet-stream');
    expect(seen.at(-1)).toMatchObject({ loaded: 45, total: 45, percent: 100, retrying: false });
    // Finished: nothing left to resume.
    expect(storage.items.size).toBe(0);
  });

  it('resumes after a dropped PATCH from the offset HEAD answers, below what was sent', async () => {
    // The second PATCH (20..40) is cut after 15 bytes: the server kept one more part (30).
    server.faults.PATCH = [{ kind: 'none' }, { kind: 'drop', afterBytes: 15 }];
    const file = video(50);
    const first = start(file);
    expect(await first.upload.result).toEqual({ ok: true, id: 'video-1' });
    const sent = server.log.map((entry) => [
      entry.method,
      entry.headers['upload-offset'] ?? null,
      entry.bytes,
    ]);
    expect(sent).toEqual([
      ['POST', null, 0],
      ['PATCH', '0', 20],
      ['PATCH', '20', 20],
      ['HEAD', null, 0],
      ['PATCH', '30', 20],
    ]);
    expect(waits).toEqual([100]);
    // The dialog was told about the lost connection, then that it went on.
    const states = first.seen.map((progress) => progress.retrying);
    expect(states).toContain(true);
    expect(first.seen.at(-1)).toMatchObject({ retrying: false, percent: 100 });
  });

  it('retries 5xx answers and lost connections with growing waits, then gives up keeping the URL', async () => {
    server.faults.PATCH = [
      { kind: 'status', status: 503 },
      { kind: 'network' },
      { kind: 'status', status: 502 },
      { kind: 'network' },
    ];
    const file = video(30);
    const { upload } = start(file);
    expect(await upload.result).toEqual({
      ok: false,
      cancelled: false,
      status: { success: false, identifier: 'challenge_video_upload_failed', message: null },
    });
    expect(waits).toEqual([100, 200, 400]);
    // A later try resumes it.
    expect(storage.items.get(tusStorageKey('c-1', file))).toBe('/api/uploads/tus/s-1');
  });

  it('cancel sends DELETE for the upload and forgets it', async () => {
    server.hangPatches = -1;
    const file = video(30);
    const { upload } = start(file);
    await vi.waitFor(() => expect(server.requests('PATCH')).toHaveLength(1));
    upload.cancel();
    expect(await upload.result).toEqual({ ok: false, cancelled: true });
    const deleted = server.requests('DELETE');
    expect(deleted).toHaveLength(1);
    expect(deleted[0]).toMatchObject({ url: '/api/uploads/tus/s-1' });
    expect(deleted[0]!.headers['tus-resumable']).toBe('1.0.0');
    expect(server.sessions.size).toBe(0);
    expect(storage.items.size).toBe(0);
  });

  it('cancel during a wait before a retry ends the wait and deletes too', async () => {
    server.faults.PATCH = [{ kind: 'network' }];
    let release: () => void = () => undefined;
    const { upload } = start(video(30), {
      sleep: () => new Promise<void>((resolve) => (release = resolve)),
    });
    await vi.waitFor(() => expect(server.requests('PATCH')).toHaveLength(1));
    upload.cancel();
    expect(await upload.result).toEqual({ ok: false, cancelled: true });
    release();
    expect(server.requests('DELETE')).toHaveLength(1);
    expect(server.requests('PATCH')).toHaveLength(1);
  });

  it('pause (leaving the page) stops without DELETE and keeps the URL to resume', async () => {
    server.hangPatches = -1;
    const file = video(30);
    const { upload } = start(file);
    await vi.waitFor(() => expect(server.requests('PATCH')).toHaveLength(1));
    upload.pause();
    expect(await upload.result).toEqual({ ok: false, cancelled: true });
    expect(server.requests('DELETE')).toHaveLength(0);
    expect(storage.items.get(tusStorageKey('c-1', file))).toBe('/api/uploads/tus/s-1');
  });

  it('a PATCH whose bytes stop moving is given up after the stall time and resumed', async () => {
    server.hangPatches = 1;
    const { upload } = start(video(30), { stallMs: 20 });
    expect(await upload.result).toEqual({ ok: true, id: 'video-1' });
    expect(server.log.map((entry) => entry.method)).toEqual([
      'POST',
      'PATCH',
      'HEAD',
      'PATCH',
      'PATCH',
    ]);
    expect(waits).toEqual([100]);
  });

  it('an upload removed on the server while sending (swept) starts over once', async () => {
    server.faults.PATCH = [{ kind: 'none' }, { kind: 'status', status: 404 }];
    const { upload } = start(video(30));
    expect(await upload.result).toEqual({ ok: true, id: 'video-1' });
    expect(server.log.map((entry) => [entry.method, entry.url])).toEqual([
      ['POST', '/api/uploads/tus'],
      ['PATCH', '/api/uploads/tus/s-1'],
      ['PATCH', '/api/uploads/tus/s-1'],
      ['POST', '/api/uploads/tus'],
      ['PATCH', '/api/uploads/tus/s-2'],
      ['PATCH', '/api/uploads/tus/s-2'],
    ]);
  });

  it('a stored URL is reused: HEAD for the offset, no new upload, the rest sent', async () => {
    const file = video(45);
    server.sessions.set('/api/uploads/tus/earlier', {
      length: 45,
      offset: 20,
      metadata: {},
      videoId: null,
    });
    storage.setItem(tusStorageKey('c-1', file), '/api/uploads/tus/earlier');
    const { upload, seen } = start(file);
    expect(await upload.result).toEqual({ ok: true, id: 'video-1' });
    expect(server.requests('POST')).toHaveLength(0);
    expect(
      server.log.map((entry) => [entry.method, entry.url, entry.headers['upload-offset']]),
    ).toEqual([
      ['HEAD', '/api/uploads/tus/earlier', undefined],
      ['PATCH', '/api/uploads/tus/earlier', '20'],
      ['PATCH', '/api/uploads/tus/earlier', '40'],
    ]);
    expect(seen[0]).toMatchObject({ loaded: 20, percent: 44 });
  });

  it('a stored URL the server no longer knows (expired, swept) starts over once', async () => {
    const file = video(10);
    storage.setItem(tusStorageKey('c-1', file), '/api/uploads/tus/gone');
    const { upload } = start(file);
    expect(await upload.result).toEqual({ ok: true, id: 'video-1' });
    expect(server.log.map((entry) => [entry.method, entry.url])).toEqual([
      ['HEAD', '/api/uploads/tus/gone'],
      ['POST', '/api/uploads/tus'],
      ['PATCH', '/api/uploads/tus/s-1'],
    ]);
  });

  it('another file, size or challenge is another key: no mix-ups', () => {
    const file = video(10);
    const key = tusStorageKey('c-1', file);
    expect(tusStorageKey('c-2', file)).not.toBe(key);
    expect(
      tusStorageKey('c-1', { ...file, name: 'proof.mp4', size: 11, lastModified: 1_700_000 }),
    ).not.toBe(key);
    expect(tusStorageKey('c-1', { name: 'proof.mp4', size: 10, lastModified: 1 })).not.toBe(key);
  });

  it('maps refusals: 413 is "File is too large", 415 invalid_file, the gateway\'s 429, media\'s envelope', async () => {
    const cases: [Partial<FakeTusServer['faults']>, string, string | null][] = [
      [
        {
          POST: [
            {
              kind: 'status',
              status: 413,
              body: { status: { identifier: 'upload_error', message: 'File is too large' } },
            },
          ],
        },
        'upload_error',
        'File is too large',
      ],
      [{ POST: [{ kind: 'status', status: 413 }] }, 'upload_error', 'File is too large'],
      [
        {
          PATCH: [
            {
              kind: 'status',
              status: 415,
              body: {
                status: {
                  identifier: 'invalid_file',
                  message: 'Only mp4, mov and webm videos are allowed.',
                },
              },
            },
          ],
        },
        'invalid_file',
        'Only mp4, mov and webm videos are allowed.',
      ],
      [{ PATCH: [{ kind: 'status', status: 415 }] }, 'invalid_file', null],
      [
        {
          POST: [
            {
              kind: 'status',
              status: 429,
              body: {
                errors: [
                  {
                    message: 'Too many requests.',
                    extensions: { code: 'TOO_MANY_REQUESTS', identifier: 'too_many_requests' },
                  },
                ],
              },
            },
          ],
        },
        'too_many_requests',
        'Too many requests.',
      ],
      [
        {
          POST: [
            {
              kind: 'status',
              status: 403,
              body: { status: { identifier: 'invalid_action', message: null } },
            },
          ],
        },
        'invalid_action',
        null,
      ],
    ];
    for (const [faults, identifier, message] of cases) {
      server = new FakeTusServer();
      server.faults = { ...faults };
      const { upload } = start(video(30));
      expect(await upload.result).toEqual({
        ok: false,
        cancelled: false,
        status: { success: false, identifier, message },
      });
    }
  });

  it('a refusal while sending (403) is shown at once; only a 409 sends it to ask HEAD (ADR 107)', async () => {
    const refusal = {
      identifier: 'invalid_action',
      message: 'Your video for this challenge is already in.',
    };
    server.faults.PATCH = [{ kind: 'status', status: 403, body: { status: refusal } }];
    const { upload } = start(video(30));
    expect(await upload.result).toEqual({
      ok: false,
      cancelled: false,
      status: { success: false, ...refusal },
    });
    expect(server.requests('HEAD')).toHaveLength(0);
    expect(server.requests('POST')).toHaveLength(1);
  });

  it('a refused file is forgotten, so picking it again does not resume a dead upload', async () => {
    server.faults.PATCH = [{ kind: 'status', status: 415 }];
    const file = video(30);
    const { upload } = start(file);
    await upload.result;
    expect(storage.items.size).toBe(0);
  });

  it('estimates the time left from the rate over the last stretch', async () => {
    let clock = 0;
    // 10 bytes a second.
    server.onBytes = (sent) => {
      clock += (sent / 10) * 1000;
    };
    const { upload, seen } = start(video(100), { now: () => clock, chunkBytes: 20 });
    await upload.result;
    const halfway = seen.find((progress) => progress.loaded === 40);
    expect(halfway).toMatchObject({ percent: 40, secondsLeft: 6 });
  });
});

describe('xhrTransport', () => {
  beforeEach(() => {
    FakeXhr.reset();
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('sends the method, headers and body, reports the bytes sent and reads the answer headers', async () => {
    const sent: number[] = [];
    const body = new Blob([new Uint8Array(8)]);
    const request = xhrTransport.send({
      method: 'PATCH',
      url: '/api/uploads/tus/s-1',
      headers: { 'upload-offset': '0', 'tus-resumable': '1.0.0' },
      body,
      onProgress: (bytes) => sent.push(bytes),
    });
    const xhr = FakeXhr.last();
    expect([xhr.method, xhr.url, xhr.body]).toEqual(['PATCH', '/api/uploads/tus/s-1', body]);
    expect(xhr.headers).toMatchObject({ 'upload-offset': '0', 'tus-resumable': '1.0.0' });
    xhr.progress(4, 8);
    xhr.respond(204, '', { 'Upload-Offset': '8' });
    const response = await request.response;
    expect(sent).toEqual([4]);
    expect(response.status).toBe(204);
    expect(response.header('upload-offset')).toBe('8');
  });

  it('a failed connection is a TusNetworkError (retried), an abort is not', async () => {
    const failing = xhrTransport.send({ method: 'HEAD', url: '/x', headers: {} });
    FakeXhr.last().fail();
    await expect(failing.response).rejects.toBeInstanceOf(TusNetworkError);
    const aborting = xhrTransport.send({ method: 'HEAD', url: '/x', headers: {} });
    aborting.abort();
    await expect(aborting.response).rejects.not.toBeInstanceOf(TusNetworkError);
  });
});
