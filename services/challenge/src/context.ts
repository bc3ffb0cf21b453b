import type { EscrowClient, Redis, RequestContext } from '@challenge/kit';
import type { SocialLoaders } from './domain/social.ts';
import type { ChallengeRules } from './config.ts';
import type { Database } from './data/db.ts';

export interface ChallengeContext extends RequestContext {
  db: Database;
  escrow: EscrowClient;
  rules: ChallengeRules;
  redis: Redis;
  /** The site's origin, for a challenge's public link. */
  publicOrigin: string;
  /** Per request: respect counts and the viewer's respects, batched (domain/social.ts). */
  social: SocialLoaders;
  /** Prefix of this service's Redis keys (tests isolate themselves). */
  redisPrefix: string;
}
