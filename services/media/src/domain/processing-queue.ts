import type { Logger } from '@challenge/kit';
import type { Database } from '../data/db.ts';

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
    await deps.queue.enqueue(video.id);
  } catch (error) {
    deps.logger.error({ err: error, videoId: video.id }, 'could not enqueue the uploaded video');
  }
}
