import { randomBytes } from 'node:crypto';
import { isErrorIdentifier, type ErrorIdentifier } from '@challenge/kit';
import type { GraphQLResponse } from '@challenge/testing';

/**
 * Who asks, in the order of the matrix's columns: nobody logged in; a logged-in stranger to the
 * resource; the resource's other party (owner or challenged user; for a user's own things, that
 * user); a user banned through banUser; and the three staff roles.
 */
export const MATRIX_ROLES = [
  'visitor',
  'user',
  'party',
  'banned',
  'referee',
  'moderator',
  'admin',
] as const;
export type MatrixRole = (typeof MATRIX_ROLES)[number];

/** A cell: allowed (any answer but a refusal), or refused with exactly this identifier. */
export type Expected = 'allow' | ErrorIdentifier;

/**
 * The identifiers that mean "not for you": refusals proper, and the ones that refuse by hiding
 * (the thing is said not to exist). An allowed cell must answer none of them; business errors
 * (insufficient_funds, invalid_credentials, redundant_mutation, ...) still count as allowed.
 */
export const REFUSALS: ReadonlySet<string> = new Set<ErrorIdentifier>([
  'unauthorized',
  'access_denied',
  'banned_user',
  'authorized_user_not_found',
  'get_open_payout_amount_user_not_logged_in',
  'wallet_not_for_user',
  'invalid_challenge_owner',
  'referee_case_required',
  'not_found',
  'user_not_found',
  'challenge_not_found',
  'private_profile',
]);

/**
 * What a cell answered: `allow` for success, else the identifier of the refusal or failure (the
 * 401 of the gateway, a GraphQL error, or the result's status). Anything unforeseen is spelled out.
 */
export function outcomeOf(response: GraphQLResponse<Record<string, unknown>>, field: string) {
  const errors = response.errors ?? [];
  if (response.httpStatus === 401 || response.httpStatus === 403) {
    return String(errors[0]?.extensions?.identifier ?? `HTTP ${response.httpStatus}`);
  }
  if (errors.length) {
    const ids = errors.map((error) => error.extensions?.identifier ?? error.message);
    return ids.length === 1 && typeof ids[0] === 'string' ? ids[0] : `errors ${ids.join(', ')}`;
  }
  const status = (response.data?.[field] as { status?: { success: boolean; identifier: string } })
    ?.status;
  if (!status) return `HTTP ${response.httpStatus} without a status`;
  return status.success ? 'allow' : status.identifier;
}

/** Whether an answer is what the cell expects. generic_error is never right: it hides a fault. */
export function answersAsExpected(outcome: string, expected: Expected): boolean {
  if (expected !== 'allow') return outcome === expected;
  if (outcome === 'allow') return true;
  return isErrorIdentifier(outcome) && outcome !== 'generic_error' && !REFUSALS.has(outcome);
}

/** Runs `tasks` with at most `limit` at once (the machine has two cores). */
export async function inPool<T>(limit: number, tasks: (() => Promise<T>)[]): Promise<T[]> {
  const results: T[] = new Array(tasks.length);
  let next = 0;
  const worker = async () => {
    while (next < tasks.length) {
      const index = next++;
      results[index] = await tasks[index]!();
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, tasks.length) }, worker));
  return results;
}

export const address = (prefix = 'matrix') =>
  `${prefix}-${randomBytes(5).toString('hex')}@example.test`;
