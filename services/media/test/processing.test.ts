import { describe, expect, it } from 'vitest';
import { parseProbe, UndecodableVideoError } from '../src/data/ffmpeg.ts';
import {
  dHash,
  decodeFrameHashes,
  durationWindow,
  durationsAgree,
  encodeFrameHashes,
  findRecycledSource,
  frameBandProbes,
  frameBands,
  hammingDistance,
  MAX_FRAME_DISTANCE,
  recycleMatch,
  type Fingerprint,
} from '../src/domain/fingerprint.ts';
import { parseImageRequest, renditionKey } from '../src/domain/images.ts';
import {
  DEFAULT_BOUNDS,
  aspectModeOf,
  boundsRefusal,
  transcodeSize,
} from '../src/domain/processing.ts';

describe('aspect mode and playback size', () => {
  it.each([
    [1920, 1080, 'landscape'],
    [1080, 1920, 'portrait'],
    [1080, 1080, 'square'],
    [1000, 1040, 'square'],
    [1000, 1060, 'portrait'],
  ] as const)('%i x %i is %s', (width, height, mode) => {
    expect(aspectModeOf(width, height)).toBe(mode);
  });

  it('scales the shorter side to at most 720, keeps the ratio, never enlarges, keeps sides even', () => {
    expect(transcodeSize(1920, 1080)).toEqual({ width: 1280, height: 720 });
    expect(transcodeSize(1080, 1920)).toEqual({ width: 720, height: 1280 });
    expect(transcodeSize(3840, 2160)).toEqual({ width: 1280, height: 720 });
    expect(transcodeSize(640, 360)).toEqual({ width: 640, height: 360 });
    expect(transcodeSize(321, 241)).toEqual({ width: 322, height: 242 });
    expect(transcodeSize(1440, 1080)).toEqual({ width: 960, height: 720 });
  });
});

describe('the bounds of what is processed (docs/adr/0073)', () => {
  const within = { durationMs: 10 * 60 * 1000, width: 2160, height: 3840, frameCount: 36_000 };
  it('takes a ten-minute 4K phone video at 60 fps, and nothing longer or larger', () => {
    expect(boundsRefusal(within, DEFAULT_BOUNDS)).toBeNull();
    expect(boundsRefusal({ ...within, width: 4096, height: 2304 }, DEFAULT_BOUNDS)).toBeNull();
    expect(boundsRefusal({ ...within, durationMs: 600_001 }, DEFAULT_BOUNDS)).toBe(
      'video_too_long',
    );
    expect(boundsRefusal({ ...within, width: 4320, height: 7680 }, DEFAULT_BOUNDS)).toBe(
      'video_too_large',
    );
    expect(boundsRefusal({ ...within, frameCount: 72_001 }, DEFAULT_BOUNDS)).toBe(
      'video_too_large',
    );
  });
});

describe('ffprobe output', () => {
  const probe = (
    streams: unknown[],
    format: unknown = { duration: '2.5', format_name: 'mov,mp4' },
  ) => parseProbe(JSON.stringify({ streams, format }));

  it('reads the duration and the displayed size, rotation included', () => {
    expect(
      probe([
        { codec_type: 'video', codec_name: 'h264', width: 1920, height: 1080 },
        { codec_type: 'audio' },
      ]),
    ).toEqual({
      durationMs: 2500,
      width: 1920,
      height: 1080,
      hasAudio: true,
      formatName: 'mov,mp4',
      videoCodec: 'h264',
      frameCount: 0,
    });
    const rotated = [
      { codec_type: 'video', width: 1920, height: 1080, side_data_list: [{ rotation: -90 }] },
    ];
    expect(probe(rotated)).toMatchObject({ width: 1080, height: 1920, hasAudio: false });
    const tagged = [{ codec_type: 'video', width: 1920, height: 1080, tags: { rotate: '270' } }];
    expect(probe(tagged)).toMatchObject({ width: 1080, height: 1920 });
    const upsideDown = [
      { codec_type: 'video', width: 1920, height: 1080, tags: { rotate: '180' } },
    ];
    expect(probe(upsideDown)).toMatchObject({ width: 1920, height: 1080 });
  });

  it("counts the frames: the header's count, or duration x frame rate when it says fewer or none", () => {
    const video = { codec_type: 'video', width: 2, height: 2 };
    expect(probe([{ ...video, nb_frames: '75', avg_frame_rate: '30/1' }])).toMatchObject({
      frameCount: 75,
    });
    // 2.5 s at 60 fps, whatever a (webm) header without a count, or a lying one, says.
    expect(probe([{ ...video, avg_frame_rate: '60/1' }]).frameCount).toBe(150);
    expect(probe([{ ...video, nb_frames: '3', avg_frame_rate: '60/1' }]).frameCount).toBe(150);
    expect(probe([{ ...video, avg_frame_rate: '0/0', r_frame_rate: '30000/1001' }])).toMatchObject({
      frameCount: 75,
    });
  });

  it('calls anything without a sized video stream and a duration undecodable', () => {
    expect(() => probe([{ codec_type: 'audio' }])).toThrow(UndecodableVideoError);
    expect(() => probe([{ codec_type: 'video', width: 0, height: 0 }])).toThrow(
      UndecodableVideoError,
    );
    expect(() => probe([{ codec_type: 'video', width: 2, height: 2 }], {})).toThrow(
      UndecodableVideoError,
    );
    expect(() => parseProbe('not json')).toThrow(UndecodableVideoError);
  });
});

describe('recycled-proof fingerprints', () => {
  const gradient = (flip: boolean) =>
    Uint8Array.from(
      { length: 72 },
      (_, index) => ((index % 9) * 20 + (flip ? 200 - index : 0)) & 255,
    );

  it('hashes a 9 x 8 grid into 64 bits and counts differing bits', () => {
    const hash = dHash(gradient(false));
    expect(hash).toMatch(/^[0-9a-f]{16}$/);
    expect(hammingDistance(hash, hash)).toBe(0);
    expect(hammingDistance('0000000000000000', 'ffffffffffffffff')).toBe(64);
    expect(hammingDistance('0000000000000000', '0000000000000101')).toBe(2);
    expect(() => dHash(new Uint8Array(10))).toThrow(RangeError);
  });

  it('stores left-out frames as "-" and reads them back as null', () => {
    const frames = ['00000000000000ff', null, 'ffffffffffffffff'];
    expect(encodeFrameHashes(frames)).toBe('00000000000000ff,-,ffffffffffffffff');
    expect(decodeFrameHashes(encodeFrameHashes(frames))).toEqual(frames);
    expect(decodeFrameHashes(null)).toEqual([]);
  });

  it('lets durations differ by 1 s or 2 %, whichever is more', () => {
    expect(durationsAgree(10_000, 11_000)).toBe(true);
    expect(durationsAgree(10_000, 11_001)).toBe(false);
    expect(durationsAgree(100_000, 102_000)).toBe(true);
    expect(durationsAgree(100_000, 102_500)).toBe(false);
    const window = durationWindow(100_000);
    expect(window.min).toBeLessThanOrEqual(98_000);
    expect(window.max).toBeGreaterThanOrEqual(102_000);
  });

  const base: Fingerprint = {
    sha256: 'a'.repeat(64),
    durationMs: 10_000,
    frames: ['0000000000000000', '00000000ffffffff', 'ffffffff00000000', '0f0f0f0f0f0f0f0f', null],
  };

  it('matches the same file, or the same frames within 10 bits on at least three frames', () => {
    expect(recycleMatch({ ...base, durationMs: 99_999 }, base)).toBe('identical_file');
    const reencoded = {
      ...base,
      sha256: 'b'.repeat(64),
      durationMs: 9_700,
      frames: ['00000000000003ff', '00000000fffffff0', 'ffffffff00000000', null, null],
    };
    expect(recycleMatch(reencoded, base)).toBe('same_frames');
    // One frame too different: another video.
    expect(
      recycleMatch(
        { ...reencoded, frames: ['0000000000000fff', ...reencoded.frames.slice(1)] },
        base,
      ),
    ).toBeNull();
    // Too few informative frames in common (black or faded video says nothing).
    expect(
      recycleMatch({ ...reencoded, frames: ['0000000000000000', null, null, null, null] }, base),
    ).toBeNull();
    // Another length.
    expect(recycleMatch({ ...reencoded, durationMs: 20_000 }, base)).toBeNull();
  });

  it('names the earliest matching proof, unless that one is of the same challenge', () => {
    const video = { ...base, challengeId: 'c-new' };
    const older = { ...base, id: 'v1', challengeId: 'c-old' };
    const newer = { ...base, id: 'v2', challengeId: 'c-other' };
    expect(findRecycledSource(video, [older, newer])?.id).toBe('v1');
    expect(findRecycledSource({ ...video, challengeId: 'c-old' }, [older, newer])).toBeNull();
    expect(findRecycledSource(video, [])).toBeNull();
  });
});

describe('the frame index (docs/adr/0073)', () => {
  const randomHash = () =>
    Array.from({ length: 16 }, () => Math.floor(Math.random() * 16).toString(16)).join('');
  /** `hash` with `bits` distinct random bits flipped. */
  function flip(hash: string, bits: number): string {
    let value = BigInt(`0x${hash}`);
    const positions = new Set<number>();
    while (positions.size < bits) positions.add(Math.floor(Math.random() * 64));
    for (const position of positions) value ^= 1n << BigInt(position);
    return value.toString(16).padStart(16, '0');
  }

  it('probes every frame at most MAX_FRAME_DISTANCE bits away: no match is missed', () => {
    for (let trial = 0; trial < 2_000; trial++) {
      const mine = randomHash();
      const theirs = flip(mine, trial % (MAX_FRAME_DISTANCE + 1));
      expect(hammingDistance(mine, theirs)).toBeLessThanOrEqual(MAX_FRAME_DISTANCE);
      const probes = new Set(frameBandProbes([null, mine]));
      expect(frameBands([null, theirs]).some((band) => probes.has(band))).toBe(true);
    }
  });

  it('keeps positions apart and probes 4 x 137 bands per frame', () => {
    const hash = 'ffff00000001abcd';
    expect(frameBands([hash, null, '0123456789abcdef'])).toEqual([
      65535, 65536, 131073, 240589, 524579, 607591, 690603, 773615,
    ]);
    const probes = frameBandProbes([hash]);
    expect(new Set(probes).size).toBe(4 * 137);
    // The same hash at another position shares nothing.
    expect(frameBands([null, hash]).some((band) => probes.includes(band))).toBe(false);
  });
});

describe('/_ipx requests', () => {
  it('accepts the bounded widths and qualities, webp only, avatars only', () => {
    expect(parseImageRequest('w_320&f_webp&q_80', 'avatars/a.png')).toEqual({
      ok: true,
      request: { sourceKey: 'avatars/a.png', width: 320, quality: 80, format: 'webp' },
    });
    expect(parseImageRequest('w_640', 'avatars/u/1.jpg')).toMatchObject({
      ok: true,
      request: { width: 640, quality: 80 },
    });
    for (const modifiers of ['w_333', 'w_320&q_85', 'w_320&f_avif', 'w_320&fit_cover', '', 'w_']) {
      expect(parseImageRequest(modifiers, 'avatars/a.png')).toEqual({
        ok: false,
        problem: 'bad_request',
      });
    }
    for (const source of [
      'videos/x/original.mp4',
      'avatars/../videos/x',
      'avatars/.hidden',
      'avatars',
    ]) {
      expect(parseImageRequest('w_320', source)).toEqual({ ok: false, problem: 'not_found' });
    }
  });

  it('caches a rendition under its source and the source version', () => {
    const request = {
      sourceKey: 'avatars/a.png',
      width: 320,
      quality: 80,
      format: 'webp',
    } as const;
    expect(renditionKey(request, '"abc-1"')).toBe('cache/ipx/avatars/a.png/w320-q80-abc1.webp');
  });
});
