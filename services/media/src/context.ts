import type { ProfileClient, RequestContext } from '@challenge/kit';
import type { Database } from './data/db.ts';
import type { ObjectStorage } from './data/storage.ts';
import type { VideoProcessingQueue } from './domain/processing-queue.ts';

export interface MediaContext extends RequestContext {
  db: Database;
  storage: ObjectStorage;
  videoQueue: VideoProcessingQueue;
  /** Identity's internal profile update (avatars, docs/adr/0049); null when not configured. */
  profiles: ProfileClient | null;
}
