/**
 * A media worker in its own process whose transcode never ends: the stall test starts it, waits
 * until it is inside a job, and kills it (SIGKILL, as the OOM killer or a lost node would).
 * Argument: JSON { databaseUrl, storage, queue, workDir }.
 */
import { pino } from 'pino';
import { createDatabase } from '../../src/data/db.ts';
import { createVideoTools } from '../../src/data/ffmpeg.ts';
import { createStorage, type StorageConfig } from '../../src/data/storage.ts';
import { startVideoWorker, type VideoQueueSettings } from '../../src/data/video-queue.ts';
import { DEFAULT_BOUNDS, processVideo, type ProcessingDeps } from '../../src/domain/processing.ts';

const config = JSON.parse(process.argv[2]!) as {
  databaseUrl: string;
  storage: StorageConfig;
  queue: VideoQueueSettings;
  workDir: string;
};
const deps: ProcessingDeps = {
  db: createDatabase(config.databaseUrl),
  storage: createStorage(config.storage),
  tools: {
    ...createVideoTools(),
    transcode: () => {
      process.stdout.write('transcoding\n');
      return new Promise<void>(() => undefined);
    },
  },
  settings: {
    workDir: config.workDir,
    preset: 'ultrafast',
    threads: 1,
    ffmpegTimeoutMs: 60_000,
    ...DEFAULT_BOUNDS,
  },
  logger: pino({ level: 'silent' }),
};
startVideoWorker(
  config.queue,
  { concurrency: 1, lockDurationMs: 2_000, stalledIntervalMs: 1_000, maxStalledCount: 2 },
  {
    process: async (videoId, attempt) => void (await processVideo(deps, videoId, attempt)),
    gaveUp: async () => undefined,
  },
  deps.logger,
);
process.stdout.write('ready\n');
