/**
 * The transcode of the media worker (docs/adr/0037), printed as a figure: a 10 s 1080p clip
 * (30 fps, with sound and a little noise, so that it is not trivially compressible) is
 * transcoded exactly as the worker does (720p H.264/AAC, +faststart) with the default preset and
 * threads. Printed: the time as a ratio of the clip's length (target: under 1.0x on two cores),
 * and the CPU seconds per second of video, which other work on a shared machine does not change
 * (issue 21). The upload benchmark of issue 12 (500 MB through the gateway) belongs with the
 * upload path.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { processingEnv } from '@challenge/media/env';
import { transcodeSize } from '@challenge/media/processing';
import { createVideoTools, transcodeArgs } from '@challenge/media/video-tools';
import { sized, startBench, type Cell } from './lib/results.ts';

const run = promisify(execFile);
const SECONDS = sized(10, 1);
const bench = startBench('media');
const dir = await mkdtemp(path.join(os.tmpdir(), 'media-bench-'));
const defaults = processingEnv.parse({});
const tools = createVideoTools();

try {
  const clip = path.join(dir, 'clip-1080p.mp4');
  await run('ffmpeg', [
    ...['-hide_banner', '-loglevel', 'error', '-y'],
    ...['-f', 'lavfi', '-i', 'testsrc2=size=1920x1080:rate=30'],
    ...['-f', 'lavfi', '-i', 'sine=frequency=440'],
    ...['-vf', 'noise=alls=6:allf=t', '-t', String(SECONDS)],
    ...['-c:v', 'libx264', '-preset', 'ultrafast', '-crf', '18', '-pix_fmt', 'yuv420p'],
    ...['-c:a', 'aac', clip],
  ]);
  const probed = await tools.probe(clip, 60_000);
  const size = transcodeSize(probed.width, probed.height);
  const presets = sized(
    [...new Set([defaults.VIDEO_TRANSCODE_PRESET, 'faster', 'superfast'])],
    [defaults.VIDEO_TRANSCODE_PRESET],
  );
  const rows: Cell[][] = [];
  for (const preset of presets) {
    const output = path.join(dir, `out-${preset}.mp4`);
    const options = { ...size, preset, threads: defaults.VIDEO_TRANSCODE_THREADS, timeoutMs: 0 };
    // The worker's own arguments, with -benchmark: ffmpeg prints its CPU and real time.
    const started = performance.now();
    const args = transcodeArgs(clip, output, options).map((arg, index, all) =>
      all[index - 1] === '-loglevel' ? 'info' : arg,
    );
    const { stderr } = await run('ffmpeg', ['-benchmark', '-nostats', ...args], {
      maxBuffer: 16 << 20,
    });
    const seconds = (performance.now() - started) / 1000;
    const cpu = /utime=([\d.]+)s stime=([\d.]+)s/.exec(stderr);
    const cpuSeconds = cpu ? Number(cpu[1]) + Number(cpu[2]) : NaN;
    const length = probed.durationMs / 1000;
    const bytes = (await stat(output)).size;
    rows.push([
      `${preset}${preset === defaults.VIDEO_TRANSCODE_PRESET ? ' (default)' : ''}`,
      seconds,
      seconds / length,
      cpuSeconds,
      cpuSeconds / length,
      bytes / 1024,
      os.loadavg()[0]!,
    ]);
  }
  bench.table({
    title: `Transcode ${probed.width}x${probed.height}, ${(probed.durationMs / 1000).toFixed(1)} s -> ${size.width}x${size.height}, threads ${defaults.VIDEO_TRANSCODE_THREADS || 'auto'}`,
    columns: [
      'preset',
      'wall s',
      'x clip length',
      'CPU s',
      'CPU s per s of video',
      'KiB',
      'load avg',
    ],
    rows,
    notes: [
      'target: under 1.0x the clip length on two idle cores, i.e. under 2 CPU s per s of video',
    ],
  });
} finally {
  await rm(dir, { recursive: true, force: true });
}
bench.finish();
