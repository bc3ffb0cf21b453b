import type { AuthUser } from '@challenge/kit';

/** Why a subgraph refused the request's token (HTTP 401), if one did. */
export type Refusal = 'unauthorized' | 'banned_user';

export interface GatewayContext {
  requestId: string;
  /** The raw bearer token, forwarded to the subgraphs, which verify it themselves too. */
  token: string | null;
  user: AuthUser | null;
  /** The client's address as Express computes it under the trust-proxy setting. */
  clientIp: string;
  /** Whether cookies set on this response carry `Secure` (see cookies.ts). */
  secureCookies: boolean;
  /** Set by the data source when a subgraph answers 401; the response becomes a 401. */
  refusal?: Refusal;
}
