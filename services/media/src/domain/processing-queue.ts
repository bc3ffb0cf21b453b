/**
 * The seam to video processing: after an upload is stored and its row written (status
 * `uploaded`), media hands the video's id to the queue. The processing worker (BullMQ, ffmpeg:
 * the processing part of issue 12) replaces the minimal implementation below.
 */
export interface VideoProcessingQueue {
  enqueue(videoId: string): Promise<void>;
}

/**
 * Until the worker is wired in: remembers what was enqueued (tests read it) and does nothing
 * else, so an uploaded video stays `uploaded` and is not shown.
 */
export function createRecordingQueue(): VideoProcessingQueue & { readonly enqueued: string[] } {
  const enqueued: string[] = [];
  return {
    enqueued,
    enqueue(videoId) {
      enqueued.push(videoId);
      return Promise.resolve();
    },
  };
}
