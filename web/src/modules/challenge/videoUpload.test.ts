import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FakeXhr } from '../../test/fakeXhr';
import {
  MAX_VIDEO_BYTES,
  uploadChallengeVideo,
  videoFileProblem,
  type UploadProgress,
} from './videoUpload';

const video = () => new File([new Uint8Array(1000)], 'proof.mp4', { type: 'video/mp4' });

const answer = (success: boolean, identifier = 'ok', message: string | null = null) => ({
  data: {
    createChallengeVideo: {
      id: success ? 'v-1' : null,
      videoSource: null,
      status: { success, identifier, message },
    },
  },
});

beforeEach(() => {
  FakeXhr.reset();
  vi.stubGlobal('XMLHttpRequest', FakeXhr);
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe('videoFileProblem', () => {
  it('accepts mp4, mov and webm up to 500 MB, by type or, without one, by name', () => {
    expect(videoFileProblem({ name: 'a.mp4', type: 'video/mp4', size: 1 })).toBeNull();
    expect(videoFileProblem({ name: 'a.MOV', type: 'video/quicktime', size: 1 })).toBeNull();
    expect(videoFileProblem({ name: 'a.webm', type: '', size: 500_000_000 })).toBeNull();
  });

  it('refuses other types and anything over 500 MB (the server counts 500,000,000 bytes)', () => {
    expect(videoFileProblem({ name: 'a.png', type: 'image/png', size: 1 })).toBe('type');
    expect(videoFileProblem({ name: 'a.mp4', type: 'image/png', size: 1 })).toBe('type');
    expect(videoFileProblem({ name: 'a.avi', type: '', size: 1 })).toBe('type');
    expect(videoFileProblem({ name: 'a.mp4', type: 'video/mp4', size: 500_000_001 })).toBe('size');
    expect(MAX_VIDEO_BYTES).toBe(500_000_000);
  });
});

describe('uploadChallengeVideo', () => {
  it('posts a GraphQL multipart request (operations, map, file) to /graphql with the preflight header', async () => {
    const file = video();
    const upload = uploadChallengeVideo({ challengeId: 'c-1', file, ownVideoConfirmed: true });
    const xhr = FakeXhr.last();
    expect(xhr.method).toBe('POST');
    expect(xhr.url).toBe('/graphql');
    expect(xhr.headers['apollo-require-preflight']).toBe('true');
    expect(xhr.withCredentials).toBe(true);
    const body = xhr.body as FormData;
    expect([...body.keys()]).toEqual(['operations', 'map', '0']);
    const operations = JSON.parse(body.get('operations') as string) as {
      query: string;
      variables: unknown;
    };
    expect(operations.query).toMatch(
      /mutation CreateChallengeVideo\(\$input: CreateChallengeVideoInput!\)/,
    );
    expect(operations.variables).toEqual({
      input: { challengeId: 'c-1', file: null, ownVideoConfirmed: true },
    });
    expect(JSON.parse(body.get('map') as string)).toEqual({ '0': ['variables.input.file'] });
    expect((body.get('0') as File).name).toBe('proof.mp4');

    xhr.respond(200, answer(true));
    expect(await upload.result).toEqual({ ok: true, id: 'v-1' });
  });

  it('reports the percentage and the time left from the rate so far', async () => {
    let clock = 0;
    const seen: UploadProgress[] = [];
    const upload = uploadChallengeVideo({
      challengeId: 'c-1',
      file: video(),
      ownVideoConfirmed: true,
      onProgress: (progress) => seen.push(progress),
      now: () => clock,
    });
    const xhr = FakeXhr.last();
    clock = 2000;
    xhr.progress(250, 1000); // 125 bytes a second: 750 left take 6 s
    clock = 4000;
    xhr.progress(999, 1000);
    expect(seen).toEqual([
      { loaded: 250, total: 1000, percent: 25, secondsLeft: 6 },
      { loaded: 999, total: 1000, percent: 99, secondsLeft: 1 },
    ]);
    xhr.respond(200, answer(true));
    await upload.result;
  });

  it('cancels: the request is aborted and the outcome says cancelled, not failed', async () => {
    const upload = uploadChallengeVideo({
      challengeId: 'c-1',
      file: video(),
      ownVideoConfirmed: true,
    });
    upload.cancel();
    expect(FakeXhr.last().aborted).toBe(true);
    expect(await upload.result).toEqual({ ok: false, cancelled: true });
  });

  it("hands back the server's refusals: the envelope, a GraphQL error, a 413, a lost connection", async () => {
    const cases: [(xhr: FakeXhr) => void, string, string | null][] = [
      [
        (xhr) => xhr.respond(200, answer(false, 'invalid_file', 'Not a video')),
        'invalid_file',
        'Not a video',
      ],
      [
        (xhr) =>
          xhr.respond(200, {
            errors: [{ message: 'File is too large', extensions: { code: 'UPLOAD_ERROR' } }],
          }),
        'upload_error',
        'File is too large',
      ],
      [(xhr) => xhr.respond(413, 'Payload Too Large'), 'upload_error', 'File is too large'],
      [(xhr) => xhr.respond(502, '<html>'), 'challenge_video_upload_failed', null],
      [(xhr) => xhr.fail(), 'challenge_video_upload_failed', null],
    ];
    for (const [answerWith, identifier, message] of cases) {
      const upload = uploadChallengeVideo({
        challengeId: 'c-1',
        file: video(),
        ownVideoConfirmed: true,
      });
      answerWith(FakeXhr.last());
      expect(await upload.result).toEqual({
        ok: false,
        cancelled: false,
        status: { success: false, identifier, message },
      });
    }
  });
});
