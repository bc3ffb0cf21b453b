import { spawn } from 'node:child_process';

/**
 * The ffmpeg and ffprobe adapter: the only code in media that starts them. They run as child
 * processes on files in the job's temp dir (docs/adr/0037); fluent-ffmpeg is archived upstream,
 * so the arguments are spelled out here instead.
 */

/** The input is not a video ffmpeg can read (truncated, not a video at all...): retrying won't help. */
export class UndecodableVideoError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UndecodableVideoError';
  }
}

export interface ProbedVideo {
  durationMs: number;
  /** As displayed: a rotated phone video reports its upright size. */
  width: number;
  height: number;
  hasAudio: boolean;
  formatName: string;
  videoCodec: string;
  /** The frames of the video stream: as counted in the header, or duration x frame rate. */
  frameCount: number;
}

export interface TranscodeOptions {
  width: number;
  height: number;
  /** x264 preset: speed against size (docs/adr/0037). */
  preset: string;
  /** ffmpeg's -threads; 0 lets ffmpeg choose. */
  threads: number;
  timeoutMs: number;
  /** The output stops here whatever the input's header said (docs/adr/0073). */
  maxSeconds?: number;
  maxFrames?: number;
}

export interface VideoTools {
  probe(file: string, timeoutMs: number): Promise<ProbedVideo>;
  /** H.264/AAC MP4 with the index in front (+faststart), scaled to the given size. */
  transcode(input: string, output: string, options: TranscodeOptions): Promise<void>;
  /** One frame at `atSeconds` as PNG. */
  extractFrame(input: string, output: string, atSeconds: number, timeoutMs: number): Promise<void>;
}

/**
 * Read the input only as what an upload may be (MP4/MOV, Matroska/WebM) and only from the local
 * file: an HLS playlist or a concat list posing as a video would otherwise make ffmpeg read other
 * files on the worker's disk, or URLs, into a published video.
 */
const SAFE_INPUT = [
  ...['-format_whitelist', 'mov,mp4,m4a,3gp,3g2,mj2,matroska,webm'],
  ...['-protocol_whitelist', 'file'],
];

/** Keeps the last bytes of ffmpeg's chatter for the error message. */
const STDERR_TAIL = 2_000;

interface RunResult {
  stdout: string;
}

function run(command: string, args: string[], timeoutMs: number): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr = (stderr + chunk).slice(-STDERR_TAIL);
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) return resolve({ stdout });
      // Killed (timeout, OOM, a stop): not the input's fault, so a retry may succeed.
      if (signal) return reject(new Error(`${command} ended by ${signal}`));
      reject(new UndecodableVideoError(`${command} exited ${code}: ${stderr.trim()}`));
    });
  });
}

interface FfprobeStream {
  codec_type?: string;
  codec_name?: string;
  width?: number;
  height?: number;
  duration?: string;
  nb_frames?: string;
  avg_frame_rate?: string;
  r_frame_rate?: string;
  tags?: Record<string, string>;
  side_data_list?: { rotation?: number }[];
}

interface FfprobeOutput {
  streams?: FfprobeStream[];
  format?: { duration?: string; format_name?: string };
}

function rotationOf(stream: FfprobeStream): number {
  const fromSideData = stream.side_data_list?.find((data) => data.rotation !== undefined)?.rotation;
  const rotation = fromSideData ?? Number(stream.tags?.rotate ?? 0);
  return Number.isFinite(rotation) ? Math.abs(rotation) % 180 : 0;
}

/** ffprobe's "30000/1001" as frames per second; 0 when absent or unreadable. */
function frameRate(value: string | undefined): number {
  const [numerator, denominator] = (value ?? '').split('/').map(Number);
  const rate = (numerator ?? NaN) / (denominator ?? 1);
  return Number.isFinite(rate) && rate > 0 ? rate : 0;
}

/** Reads ffprobe's JSON; anything without a sized video stream and a duration is undecodable. */
export function parseProbe(json: string): ProbedVideo {
  let output: FfprobeOutput;
  try {
    output = JSON.parse(json) as FfprobeOutput;
  } catch {
    throw new UndecodableVideoError('ffprobe printed no JSON');
  }
  const streams = output.streams ?? [];
  const video = streams.find((stream) => stream.codec_type === 'video');
  if (!video || !video.width || !video.height) {
    throw new UndecodableVideoError('no video stream');
  }
  const seconds = Number(output.format?.duration ?? video.duration);
  if (!Number.isFinite(seconds) || seconds <= 0) throw new UndecodableVideoError('no duration');
  const quarterTurn = rotationOf(video) === 90;
  const fps = frameRate(video.avg_frame_rate) || frameRate(video.r_frame_rate);
  const counted = Number(video.nb_frames);
  return {
    frameCount: Math.max(Number.isFinite(counted) ? counted : 0, Math.ceil(seconds * fps)),
    durationMs: Math.round(seconds * 1000),
    width: quarterTurn ? video.height : video.width,
    height: quarterTurn ? video.width : video.height,
    hasAudio: streams.some((stream) => stream.codec_type === 'audio'),
    formatName: output.format?.format_name ?? '',
    videoCodec: video.codec_name ?? '',
  };
}

/** ffmpeg's arguments of the playback transcode (exported for the benchmark). */
export function transcodeArgs(input: string, output: string, options: TranscodeOptions): string[] {
  return [
    ...['-nostdin', '-hide_banner', '-loglevel', 'error', '-y', ...SAFE_INPUT, '-i', input],
    // The first video and (when there is one) the first audio stream; no subtitles or data.
    ...['-map', '0:v:0', '-map', '0:a:0?', '-map_metadata', '-1', '-sn', '-dn'],
    ...['-vf', `scale=${options.width}:${options.height}`, '-pix_fmt', 'yuv420p'],
    ...['-c:v', 'libx264', '-preset', options.preset, '-crf', '23', '-profile:v', 'high'],
    ...['-c:a', 'aac', '-b:a', '128k', '-ac', '2'],
    ...(options.maxSeconds === undefined ? [] : ['-t', String(options.maxSeconds)]),
    ...(options.maxFrames === undefined ? [] : ['-frames:v', String(options.maxFrames)]),
    ...['-threads', String(options.threads), '-movflags', '+faststart', '-f', 'mp4', output],
  ];
}

export function createVideoTools(binaries = { ffmpeg: 'ffmpeg', ffprobe: 'ffprobe' }): VideoTools {
  return {
    async probe(file, timeoutMs) {
      const { stdout } = await run(
        binaries.ffprobe,
        [
          '-v',
          'error',
          '-print_format',
          'json',
          '-show_format',
          '-show_streams',
          ...SAFE_INPUT,
          file,
        ],
        timeoutMs,
      );
      return parseProbe(stdout);
    },
    async transcode(input, output, options) {
      await run(binaries.ffmpeg, transcodeArgs(input, output, options), options.timeoutMs);
    },
    async extractFrame(input, output, atSeconds, timeoutMs) {
      await run(
        binaries.ffmpeg,
        [
          ...['-nostdin', '-hide_banner', '-loglevel', 'error', '-y'],
          ...['-ss', atSeconds.toFixed(3), ...SAFE_INPUT, '-i', input],
          ...['-frames:v', '1', '-f', 'image2'],
          ...['-c:v', 'png', output],
        ],
        timeoutMs,
      );
    },
  };
}
