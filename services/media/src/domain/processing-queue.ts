import type { Logger } from '@challenge/kit';
import { transactionRunner, type Database } from '../data/db.ts';
import { tryLockSweep } from '../data/upload-sessions.ts';
import { countOpenVideosOf, findOpenVideosBefore } from '../data/videos.ts';
import { failVideo } from './processing.ts';

/**
 * The seam between uploads and processing: an upload that stored the original and its row in
 * status `uploaded` queues it (`queueVideo`); a worker then processes it (docs/adr/0037).
 */
export interface VideoProcessingQueue {
  /**
   * Adds the video's job, once: a second enqueue of a video whose job exists adds nothing.
   * `position`: the uploader's count of videos on their way, this one included (>= 1); the queue
   * serves lower positions first, so one uploader's many videos never hold back another's first.
   */
  enqueue(videoId: string, options?: { position?: number }): Promise<void>;
  /** Where the video's job is: none, on its way (waiting, delayed, running), given up, or done. */
  stateOf(videoId: string): Promise<VideoJobState>;
}

export type VideoJobState = 'missing' | 'pending' | 'failed' | 'completed';

/**
 * Queues an uploaded video behind the other uploaders' first videos (per-user fairness,
 * docs/adr/0073): its position is how many of its uploader's videos are uploaded or processing,
 * itself included. A failure is logged and left to the sweep, which queues `uploaded` rows that
 * waited too long (`reconcileStuckVideos`); the original and the row are safe meanwhile.
 */
export async function queueVideo(
  deps: { db: Database; queue: VideoProcessingQueue; logger: Logger },
  video: { id: string; uploaderId: string },
): Promise<void> {
  try {
    const position = await countOpenVideosOf(deps.db, video.uploaderId);
    await deps.queue.enqueue(video.id, { position: Math.max(1, position) });
  } catch (error) {
    deps.logger.error({ err: error, videoId: video.id }, 'could not enqueue the uploaded video');
  }
}

/** A video still uploaded or processing this long after its upload is looked at by the sweep. */
export const STUCK_VIDEO_MS = 5 * 60 * 1000;
const STUCK_BATCH = 100;

/**
 * One pass of the sweep over videos the queue may have lost (docs/adr/0073): each video uploaded
 * or processing for more than STUCK_VIDEO_MS whose job is gone (the enqueue failed: Redis down, a
 * crash between the row's insert and the enqueue) is queued again, which is harmless for one
 * whose job exists (the job id is the video id); one whose job the queue gave up on while its
 * row stayed open (the worker that saw the failure died, or could not write) is failed as
 * processing_failed, and the uploader told. Jobs on their way are left alone. One media instance
 * at a time (the sweep's advisory lock). Answers what it did.
 */
export async function reconcileStuckVideos(
  deps: { db: Database; queue: VideoProcessingQueue; logger: Logger },
  now = new Date(),
): Promise<{ queued: number; failed: number }> {
  return transactionRunner(deps.db)(async (tx) => {
    const done = { queued: 0, failed: 0 };
    if (!(await tryLockSweep(tx))) return done; // another instance sweeps
    const cutoff = new Date(now.getTime() - STUCK_VIDEO_MS);
    for (const video of await findOpenVideosBefore(tx, cutoff, STUCK_BATCH)) {
      const state = await deps.queue.stateOf(video.id);
      if (state === 'missing') {
        await queueVideo(deps, video);
        done.queued++;
      } else if (state === 'failed') {
        await failVideo(deps.db, video, 'processing_failed');
        done.failed++;
      }
    }
    return done;
  });
}
