import type { ProfileClient, ProofUploadClient, RequestContext } from '@challenge/kit';
import type { Database } from './data/db.ts';
import type { ObjectStorage } from './data/storage.ts';
import type { VideoProcessingQueue } from './domain/processing-queue.ts';
import type { ThumbnailLoader } from './domain/thumbnails.ts';

export interface MediaContext extends RequestContext {
  db: Database;
  storage: ObjectStorage;
  videoQueue: VideoProcessingQueue;
  /** Identity's internal profile update (avatars, docs/adr/0049); null when not configured. */
  profiles: ProfileClient | null;
  /** Challenge's registration of completed proof uploads (docs/adr/0071); null in upload tests. */
  proofUploads: ProofUploadClient | null;
  /** Per request: the challenge cards' thumbnails, batched into one query (domain/thumbnails.ts). */
  thumbnails: ThumbnailLoader;
}
