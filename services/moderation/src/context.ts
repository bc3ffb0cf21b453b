import type { RequestContext } from '@challenge/kit';
import type { Database } from './data/db.ts';

export interface ModerationContext extends RequestContext {
  db: Database;
}
