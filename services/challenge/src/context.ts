import type { RequestContext } from '@challenge/kit';
import type { Database } from './data/db.ts';

export interface ChallengeContext extends RequestContext {
  db: Database;
}
