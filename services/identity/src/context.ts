import type { RequestContext } from '@challenge/kit';
import type { Redis } from '@challenge/kit';
import type { Database } from './data/db.ts';
import type { Auth } from './domain/auth.ts';
import type { TokenState } from './domain/token-state.ts';

export interface IdentityContext extends RequestContext {
  db: Database;
  redis: Redis;
  tokenState: TokenState;
  auth: Auth;
}
