import type { EscrowClient, RequestContext } from '@challenge/kit';
import type { ChallengeRules } from './config.ts';
import type { Database } from './data/db.ts';

export interface ChallengeContext extends RequestContext {
  db: Database;
  escrow: EscrowClient;
  rules: ChallengeRules;
}
