/**
 * The seam between uploads and processing: an upload that stored the original and its row in
 * status `uploaded` calls `enqueue(videoId)`; a worker then processes it (docs/adr/0037).
 */
export interface VideoProcessingQueue {
  enqueue(videoId: string): Promise<void>;
}
