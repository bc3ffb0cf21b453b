import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

/** Test videos made by ffmpeg in the test: nothing binary is checked in. */
const run = promisify(execFile);

export interface ClipSpec {
  /** A lavfi video source: testsrc2, mandelbrot, smptehdbars, rgbtestsrc... */
  source: string;
  width: number;
  height: number;
  seconds: number;
  container: 'mp4' | 'mov' | 'webm';
  /** Sine frequency of the audio track; none without. */
  toneHz?: number;
  /** Extra output arguments (another quality...). */
  extra?: string[];
  /** A display rotation tag, as phones write it (degrees). */
  rotate?: number;
}

export async function makeClip(file: string, spec: ClipSpec): Promise<void> {
  const video = `${spec.source}=size=${spec.width}x${spec.height}:rate=25`;
  const codecs =
    spec.container === 'webm'
      ? ['-c:v', 'libvpx', '-b:v', '400k', '-deadline', 'realtime', '-c:a', 'libvorbis']
      : ['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-c:a', 'aac'];
  await run('ffmpeg', [
    ...['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i', video],
    ...(spec.toneHz
      ? ['-f', 'lavfi', '-i', `sine=frequency=${spec.toneHz}:duration=${spec.seconds}`]
      : []),
    ...codecs,
    ...(spec.extra ?? []),
    ...['-t', String(spec.seconds)],
    spec.rotate === undefined ? file : `${file}.unrotated.${spec.container}`,
  ]);
  if (spec.rotate === undefined) return;
  // ffmpeg 5 writes the rotation tag only when it copies the stream.
  await run('ffmpeg', [
    ...['-hide_banner', '-loglevel', 'error', '-y', '-i', `${file}.unrotated.${spec.container}`],
    ...['-c', 'copy', '-metadata:s:v:0', `rotate=${spec.rotate}`, file],
  ]);
}

export interface Probe {
  formatName: string;
  durationSeconds: number;
  video: { codec: string; width: number; height: number; pixFmt: string; profile: string };
  audio: { codec: string } | null;
}

export async function ffprobe(file: string): Promise<Probe> {
  const { stdout } = await run('ffprobe', [
    ...['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', file],
  ]);
  const json = JSON.parse(stdout) as {
    format: { format_name: string; duration: string };
    streams: {
      codec_type: string;
      codec_name: string;
      width?: number;
      height?: number;
      pix_fmt?: string;
      profile?: string;
    }[];
  };
  const video = json.streams.find((stream) => stream.codec_type === 'video')!;
  const audio = json.streams.find((stream) => stream.codec_type === 'audio');
  return {
    formatName: json.format.format_name,
    durationSeconds: Number(json.format.duration),
    video: {
      codec: video.codec_name,
      width: video.width!,
      height: video.height!,
      pixFmt: video.pix_fmt ?? '',
      profile: video.profile ?? '',
    },
    audio: audio ? { codec: audio.codec_name } : null,
  };
}

/** The top-level MP4 boxes in order: with +faststart, moov comes before mdat. */
export function topLevelBoxes(bytes: Buffer): string[] {
  const boxes: string[] = [];
  let offset = 0;
  while (offset + 8 <= bytes.length) {
    let size = bytes.readUInt32BE(offset);
    const type = bytes.toString('latin1', offset + 4, offset + 8);
    if (size === 1) size = Number(bytes.readBigUInt64BE(offset + 8));
    boxes.push(type);
    if (size < 8) break;
    offset += size;
  }
  return boxes;
}
