/**
 * The type of an upload from its first bytes (magic numbers), never from its name or the
 * client's content type. Only what the product accepts is recognised.
 */
export interface SniffedType {
  contentType: string;
  extension: string;
}

/** Enough bytes for every signature below (the EBML header's DocType sits in the first ~40). */
export const SNIFF_BYTES = 64;

const ascii = (bytes: Buffer, start: number, end: number) =>
  bytes.subarray(start, end).toString('latin1');

/** mp4 and mov (ISO base media: a `ftyp` box first), webm (EBML with DocType "webm"). */
export function sniffVideo(head: Buffer): SniffedType | null {
  if (head.length >= 12 && ascii(head, 4, 8) === 'ftyp') {
    const brand = ascii(head, 8, 12);
    if (brand === 'qt  ') return { contentType: 'video/quicktime', extension: 'mov' };
    return { contentType: 'video/mp4', extension: 'mp4' };
  }
  if (head.length >= 4 && head.readUInt32BE(0) === 0x1a45dfa3) {
    // The DocType element (0x4282) names the flavour: only webm, not every Matroska file.
    const docType = head.indexOf(Buffer.from([0x42, 0x82]));
    if (docType > 0 && head.length > docType + 3) {
      const length = head[docType + 2]! & 0x7f;
      if (ascii(head, docType + 3, docType + 3 + length) === 'webm') {
        return { contentType: 'video/webm', extension: 'webm' };
      }
    }
  }
  return null;
}

/** jpg/jpeg and png. */
export function sniffImage(head: Buffer): SniffedType | null {
  if (head.length >= 3 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) {
    return { contentType: 'image/jpeg', extension: 'jpg' };
  }
  if (head.length >= 8 && head.subarray(0, 8).equals(Buffer.from('89504e470d0a1a0a', 'hex'))) {
    return { contentType: 'image/png', extension: 'png' };
  }
  return null;
}

/**
 * media's refusal of a proof whose first bytes are no mp4, mov or webm: people name the file
 * `.mp4` and pick it, so the text says the content decides, not the name (issue 22, point 14).
 */
export const NOT_A_VIDEO =
  'The file is not a video: whatever its name says, its content is not mp4, mov or webm.';

/** Thrown by `checkedStream` with the catalogue identifier and message the client gets. */
export class UploadRefusal extends Error {
  constructor(
    readonly reason: 'invalid_file' | 'too_large',
    message: string,
  ) {
    super(message);
    this.name = 'UploadRefusal';
  }
}

/**
 * Decides the type of `source` from its first SNIFF_BYTES (refusing it with invalid_file), then
 * answers the type and the whole content again as `body`, which refuses the content the moment
 * it passes `maxBytes` ("File is too large").
 */
export async function sniffStream(
  source: AsyncIterable<Buffer>,
  options: {
    maxBytes: number;
    sniff: (head: Buffer) => SniffedType | null;
    invalidMessage: string;
  },
): Promise<{ type: SniffedType; body: AsyncIterable<Buffer> }> {
  const iterator = source[Symbol.asyncIterator]();
  const head: Buffer[] = [];
  let total = 0;
  const tooLarge = () => new UploadRefusal('too_large', 'File is too large');
  while (total < SNIFF_BYTES) {
    const next = await iterator.next();
    if (next.done) break;
    head.push(next.value);
    total += next.value.length;
  }
  if (total > options.maxBytes) throw tooLarge();
  const first = Buffer.concat(head, total);
  const type = options.sniff(first);
  if (!type) throw new UploadRefusal('invalid_file', options.invalidMessage);
  async function* body(): AsyncGenerator<Buffer> {
    yield first;
    for (;;) {
      const next = await iterator.next();
      if (next.done) return;
      total += next.value.length;
      if (total > options.maxBytes) throw tooLarge();
      yield next.value;
    }
  }
  return { type, body: body() };
}
