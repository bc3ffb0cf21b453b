/**
 * Recycled proof (docs/adr/0038): a proof is recycled when it is byte for byte an earlier proof
 * of another challenge (same SHA-256), or when it looks like one: about the same length and the
 * same picture at fixed points of its length (a difference hash of a few frames).
 */

/** Where the frames are taken, as fractions of the duration. */
export const FRAME_FRACTIONS = [0.1, 0.3, 0.5, 0.7, 0.9] as const;

/** The dHash grid: 9 x 8 grey pixels give 8 x 8 = 64 bits. */
export const DHASH_WIDTH = 9;
export const DHASH_HEIGHT = 8;

/**
 * A frame whose grey values hardly vary (black, a fade, a single colour) says nothing: all such
 * frames hash alike. Below this standard deviation (0-255 scale) a frame is left out.
 */
export const MIN_FRAME_STDEV = 6;

/** Per frame: at most this many of the 64 bits may differ... */
export const MAX_FRAME_DISTANCE = 10;
/** ...on at least this many frames that both videos have (informative frames). */
export const MIN_COMPARED_FRAMES = 3;
/** Durations must agree within the larger of these. */
export const DURATION_TOLERANCE_MS = 1_000;
export const DURATION_TOLERANCE_RATIO = 0.02;

/** One hash per fraction, in order; null for an uninformative or missing frame. */
export type FrameHashes = (string | null)[];

export interface Fingerprint {
  sha256: string;
  durationMs: number;
  frames: FrameHashes;
}

/** The 64-bit difference hash (16 hex digits) of a 9 x 8 grey image, row by row. */
export function dHash(pixels: Uint8Array): string {
  if (pixels.length !== DHASH_WIDTH * DHASH_HEIGHT) {
    throw new RangeError(`dHash needs ${DHASH_WIDTH * DHASH_HEIGHT} pixels, got ${pixels.length}`);
  }
  let bits = 0n;
  for (let row = 0; row < DHASH_HEIGHT; row += 1) {
    for (let column = 0; column < DHASH_WIDTH - 1; column += 1) {
      const left = pixels[row * DHASH_WIDTH + column]!;
      const right = pixels[row * DHASH_WIDTH + column + 1]!;
      bits = (bits << 1n) | (left < right ? 1n : 0n);
    }
  }
  return bits.toString(16).padStart(16, '0');
}

export function hammingDistance(a: string, b: string): number {
  let difference = BigInt(`0x${a}`) ^ BigInt(`0x${b}`);
  let count = 0;
  while (difference > 0n) {
    count += Number(difference & 1n);
    difference >>= 1n;
  }
  return count;
}

/** Stored as one column: the hashes joined by commas, '-' for a left-out frame. */
export function encodeFrameHashes(frames: FrameHashes): string {
  return frames.map((frame) => frame ?? '-').join(',');
}

export function decodeFrameHashes(value: string | null): FrameHashes {
  if (!value) return [];
  return value.split(',').map((frame) => (/^[0-9a-f]{16}$/.test(frame) ? frame : null));
}

export function durationsAgree(a: number, b: number): boolean {
  const tolerance = Math.max(DURATION_TOLERANCE_MS, Math.max(a, b) * DURATION_TOLERANCE_RATIO);
  return Math.abs(a - b) <= tolerance;
}

/** The window of durations a candidate must fall in (for the database's first cut). */
export function durationWindow(durationMs: number): { min: number; max: number } {
  const tolerance = Math.max(DURATION_TOLERANCE_MS, durationMs * DURATION_TOLERANCE_RATIO);
  // A candidate's own (possibly larger) tolerance is checked again by durationsAgree.
  const widened = tolerance / (1 - DURATION_TOLERANCE_RATIO);
  return { min: Math.floor(durationMs - widened), max: Math.ceil(durationMs + widened) };
}

/**
 * The frame index (docs/adr/0073): each 64-bit frame hash cut into BANDS bands of 16 bits, one
 * integer per band naming its position, band and value: (position * BANDS + band) * 65536 +
 * value. The database keeps them in a generated column (`media_frame_bands`, the same encoding)
 * with a GIN index. Two frames at most MAX_FRAME_DISTANCE bits apart have, by the pigeonhole
 * principle, a band at most PROBE_RADIUS bits apart: so a proof that matches by its frames
 * shares at least one of `frameBandProbes` with this one, and is found by an index lookup
 * whatever the number of proofs of its length.
 */
export const BANDS = 4;
const BAND_BITS = 64 / BANDS;
export const PROBE_RADIUS = Math.floor(MAX_FRAME_DISTANCE / BANDS);

/** The bands of the frames (what `media_frame_bands` stores for them). */
export function frameBands(frames: FrameHashes): number[] {
  return frames.flatMap((hash, position) =>
    hash === null
      ? []
      : Array.from({ length: BANDS }, (_, band) => bandKey(position, band, bandValue(hash, band))),
  );
}

/** Every band value within PROBE_RADIUS bits of each of the frames' bands. */
export function frameBandProbes(frames: FrameHashes): number[] {
  return frames.flatMap((hash, position) =>
    hash === null
      ? []
      : Array.from({ length: BANDS }, (_, band) =>
          valuesWithin(bandValue(hash, band), PROBE_RADIUS).map((value) =>
            bandKey(position, band, value),
          ),
        ).flat(),
  );
}

const bandValue = (hash: string, band: number) =>
  parseInt(hash.slice((band * BAND_BITS) / 4, ((band + 1) * BAND_BITS) / 4), 16);
const bandKey = (position: number, band: number, value: number) =>
  (position * BANDS + band) * 2 ** BAND_BITS + value;

/** The band values at most `radius` bits from `value` (itself included). */
function valuesWithin(value: number, radius: number): number[] {
  let found = [value];
  let frontier = [value];
  for (let step = 0; step < radius; step++) {
    // Flip one more bit, above the highest flipped so far, so each set is made once.
    frontier = frontier.flatMap((near) => {
      const flipped = near ^ value;
      const from = flipped === 0 ? 0 : 32 - Math.clz32(flipped);
      return Array.from({ length: BAND_BITS - from }, (_, i) => near ^ (1 << (from + i)));
    });
    found = found.concat(frontier);
  }
  return found;
}

/** Why a candidate matches, or null when it does not. */
export function recycleMatch(
  video: Fingerprint,
  earlier: Fingerprint,
): 'identical_file' | 'same_frames' | null {
  if (video.sha256 === earlier.sha256) return 'identical_file';
  if (!durationsAgree(video.durationMs, earlier.durationMs)) return null;
  let compared = 0;
  for (let index = 0; index < FRAME_FRACTIONS.length; index += 1) {
    const mine = video.frames[index];
    const theirs = earlier.frames[index];
    if (!mine || !theirs) continue;
    if (hammingDistance(mine, theirs) > MAX_FRAME_DISTANCE) return null;
    compared += 1;
  }
  return compared >= MIN_COMPARED_FRAMES ? 'same_frames' : null;
}

/**
 * The earlier proof this one is recycled from: the earliest matching proof (candidates come
 * oldest first), unless that one is of the same challenge (a second take of the challenge's own
 * video is no recycling, nor are the copies made of it later).
 */
export function findRecycledSource<C extends Fingerprint & { challengeId: string }>(
  video: Fingerprint & { challengeId: string },
  candidatesOldestFirst: C[],
): C | null {
  const earliest = candidatesOldestFirst.find((candidate) => recycleMatch(video, candidate));
  return earliest && earliest.challengeId !== video.challengeId ? earliest : null;
}
