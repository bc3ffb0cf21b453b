import type { RequestContext, TokenVerifier } from '@challenge/kit';
import type { WalletConfig } from './config.ts';
import type { Database } from './data/db.ts';
import type { TopUpDeps } from './domain/payments.ts';

export interface WalletContext extends RequestContext {
  db: Database;
  config: WalletConfig;
  topUps: Omit<TopUpDeps, 'logger'>;
  /** Checks identity's tokens and re-authentication proofs. */
  verifier: TokenVerifier;
}
