import type { RequestContext } from '@challenge/kit';
import type { Redis } from '@challenge/kit';
import type { Database } from './data/db.ts';
import type { Auth } from './domain/auth.ts';

export interface IdentityContext extends RequestContext {
  db: Database;
  redis: Redis;
  auth: Auth;
}
