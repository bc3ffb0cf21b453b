import { tokenFor } from '@challenge/testing';
import type { Role } from '@challenge/kit';

export interface GraphQLResponse<T> {
  httpStatus: number;
  data?: T;
  errors?: { message: string; extensions?: Record<string, unknown> }[];
}

/** A real HTTP POST to the subgraph, as the gateway sends it; `as` adds a bearer token. */
export async function graphql<T = Record<string, any>>(
  url: string,
  query: string,
  variables: Record<string, unknown> = {},
  as?: { id: string; roles?: Role[] },
): Promise<GraphQLResponse<T>> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (as) headers.authorization = `Bearer ${await tokenFor(as)}`;
  const response = await fetch(url, { method: 'POST', headers, body: JSON.stringify({ query, variables }) });
  return { httpStatus: response.status, ...((await response.json()) as object) };
}

/** GET /readyz of the subgraph behind `url` (its /graphql URL). */
export async function readiness(url: string): Promise<{ httpStatus: number; body: any }> {
  const response = await fetch(url.replace(/\/graphql$/, '/readyz'));
  return { httpStatus: response.status, body: await response.json() };
}
