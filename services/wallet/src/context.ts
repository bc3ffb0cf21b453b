import type { RequestContext } from '@challenge/kit';
import type { Database } from './data/db.ts';

export interface WalletContext extends RequestContext {
  db: Database;
}
