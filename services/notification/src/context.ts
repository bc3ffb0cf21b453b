import type { RequestContext } from '@challenge/kit';
import type { Database } from './data/db.ts';
import type { LinkConfig } from './domain/links.ts';

export interface NotificationContext extends RequestContext {
  db: Database;
  links: LinkConfig;
}
