import { randomUUID } from 'node:crypto';
import type { MediaApp } from './app.ts';
import { insertVideo } from './data/videos.ts';

/**
 * What the upload path leaves behind, for tests and demo data that do not go through an upload:
 * the original at `videos/<id>/original.<ext>`, a row in status `uploaded`, and a processing job.
 */
export async function seedUploadedVideo(
  app: Pick<MediaApp, 'db' | 'storage' | 'videoQueue'>,
  input: { challengeId: string; uploaderId: string; bytes: Buffer; extension: string },
): Promise<{ id: string; objectKey: string }> {
  const id = randomUUID();
  const objectKey = `videos/${id}/original.${input.extension}`;
  await app.storage.putObject(objectKey, input.bytes, 'application/octet-stream');
  await insertVideo(app.db, {
    id,
    challengeId: input.challengeId,
    uploaderId: input.uploaderId,
    objectKey,
  });
  await app.videoQueue.enqueue(id);
  return { id, objectKey };
}
