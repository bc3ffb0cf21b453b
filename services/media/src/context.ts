import type { RequestContext } from '@challenge/kit';
import type { Database } from './data/db.ts';
import type { ObjectStorage } from './data/storage.ts';

export interface MediaContext extends RequestContext {
  db: Database;
  storage: ObjectStorage;
}
