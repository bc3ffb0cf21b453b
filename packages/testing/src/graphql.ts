import type { Role } from '@challenge/kit';
import { GATEWAY_SECRET_HEADER, TEST_GATEWAY_SECRET, tokenFor } from './services.ts';

export interface GraphQLResponse<T> {
  httpStatus: number;
  data?: T;
  errors?: { message: string; extensions?: Record<string, unknown> }[];
}

/** Who sends the request: a user (a token is signed for them) or a raw bearer token. */
export type Caller = { id: string; roles?: Role[] } | { token: string };

/**
 * A real HTTP POST of a GraphQL operation, as the web app and the gateway send it. Without a type
 * argument the data is navigated freely: the assertions are what check its shape. It carries the
 * tests' gateway credential, so that a subgraph called directly serves it as it would serve the
 * gateway (docs/adr/0069; the gateway never passes a client's on); `gatewaySecret` sends another
 * one, or with null none.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function graphql<T = Record<string, any>>(
  url: string,
  query: string,
  variables: Record<string, unknown> = {},
  as?: Caller,
  options: { gatewaySecret?: string | null } = {},
): Promise<GraphQLResponse<T>> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  const secret = options.gatewaySecret === undefined ? TEST_GATEWAY_SECRET : options.gatewaySecret;
  if (secret !== null) headers[GATEWAY_SECRET_HEADER] = secret;
  if (as) headers.authorization = `Bearer ${'token' in as ? as.token : await tokenFor(as)}`;
  const response = await fetch(url, {
    method: 'POST',
    headers,
    body: JSON.stringify({ query, variables }),
  });
  return { httpStatus: response.status, ...((await response.json()) as object) };
}

export interface Readiness {
  status: string;
  checks: Record<string, string>;
}

/** GET /readyz of the process whose /graphql is `url`. */
export async function readiness(url: string): Promise<{ httpStatus: number; body: Readiness }> {
  const response = await fetch(url.replace(/\/graphql$/, '/readyz'));
  return { httpStatus: response.status, body: (await response.json()) as Readiness };
}
