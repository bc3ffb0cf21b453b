import { timingSafeEqual, createHash } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import { z } from 'zod';
import { failStatus, type Status } from './envelope.ts';
import { AppError, isErrorIdentifier, type ErrorIdentifier } from './errors.ts';
import { traceHeaders } from './tracing.ts';

/**
 * Service-to-service calls (DESIGN.md section 3: the one synchronous write is the escrow hold).
 * They never pass through the gateway; a shared secret proves the caller is one of ours, and
 * the network policy of the deployment keeps them internal as a second fence.
 */
export const internalApiEnv = z.object({
  INTERNAL_API_TOKEN: z.string().min(32, 'must be at least 32 characters'),
});

const digest = (value: string) => createHash('sha256').update(value).digest();

/** Express middleware: 401 with a catalogue error unless the bearer token is the shared secret. */
export function requireInternalToken(token: string) {
  const expected = digest(token);
  return (req: Request, res: Response, next: NextFunction) => {
    const given = /^Bearer (.+)$/.exec(req.get('authorization') ?? '')?.[1] ?? '';
    // Hashing first makes the comparison constant-time whatever the lengths.
    if (timingSafeEqual(digest(given), expected)) return next();
    res.status(401).json(failure('unauthorized'));
  };
}

/** The body of a failed internal call: the same status envelope as GraphQL results. */
export function failure(identifier: ErrorIdentifier, message?: string): { status: Status } {
  return { status: failStatus(identifier, message) };
}

/**
 * The escrow hold contract: the challenge id and the party are the idempotency key. Every
 * challenge holds the owner's reward (party `owner`, the default); a duel also holds the
 * challenged user's stake on acceptance (party `challenged`, docs/adr/0032). `ownerId` is the
 * staker, whose money is held. `attempt` names one try (a duel's acceptance, docs/adr/0072): a
 * release ends that attempt for good, and a new attempt may hold a given-back stake again while
 * the duel is open; a repeated request of one attempt takes at most one hold.
 */
export const ESCROW_HOLDS_PATH = '/internal/escrow/holds';

export const escrowPartySchema = z.enum(['owner', 'challenged']);
export type EscrowParty = z.infer<typeof escrowPartySchema>;

export const escrowHoldRequestSchema = z.object({
  challengeId: z.uuid(),
  ownerId: z.uuid(),
  amountCents: z.number().int().positive().max(2_147_483_647),
  slug: z.string().min(1).max(200),
  challengeName: z.string().min(1).max(200),
  party: escrowPartySchema.optional(),
  attempt: z.uuid().optional(),
});
export type EscrowHoldRequest = z.infer<typeof escrowHoldRequestSchema>;

export const escrowReleaseRequestSchema = z.object({
  party: escrowPartySchema.optional(),
  attempt: z.uuid().optional(),
});

export interface EscrowHoldView {
  challengeId: string;
  ownerId: string;
  amountCents: number;
  status: 'held' | 'captured' | 'released';
}

export interface EscrowClient {
  /**
   * Holds the reward or throws AppError('insufficient_funds'); repeating it answers the same hold
   * while it is held. Once the reward was given back or paid, or the challenge's events ended it,
   * it throws AppError('invalid_action'): the challenge must then not be opened (ADR 0015).
   */
  hold(request: EscrowHoldRequest): Promise<EscrowHoldView>;
  /**
   * Gives an unused hold back (a challenge that could not be opened after all, an acceptance
   * that failed); refused with invalid_action once wallet has seen the challenge live (a duel's
   * stake: accepted). Throws AppError('not_found') when the attempt holds nothing; that counts
   * as done: a hold of that attempt arriving later (its answer was lost) is refused. Should the
   * challenge go live after all, wallet takes the reward again when its event arrives.
   */
  release(challengeId: string, party?: EscrowParty, attempt?: string): Promise<EscrowHoldView>;
}

/** The client challenge uses; wallet answers with `{status, hold}`. */
export function createEscrowClient(options: {
  baseUrl: string;
  token: string;
  fetch?: typeof fetch;
}): EscrowClient {
  const send = async (path: string, body: unknown): Promise<EscrowHoldView> => {
    const response = await (options.fetch ?? fetch)(new URL(path, options.baseUrl), {
      method: 'POST',
      headers: {
        authorization: `Bearer ${options.token}`,
        'content-type': 'application/json',
        // The caller's trace goes on in the service it calls (docs/adr/0080).
        ...traceHeaders(),
      },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(10_000),
    });
    const payload = (await response.json().catch(() => null)) as {
      status?: { success?: boolean; identifier?: string; message?: string };
      hold?: EscrowHoldView;
    } | null;
    if (response.ok && payload?.status?.success && payload.hold) return payload.hold;
    const identifier = payload?.status?.identifier;
    throw new AppError(
      identifier && isErrorIdentifier(identifier) ? identifier : 'generic_error',
      payload?.status?.message,
    );
  };
  return {
    hold: (request) => send(ESCROW_HOLDS_PATH, escrowHoldRequestSchema.parse(request)),
    release: (challengeId, party, attempt) =>
      send(
        `${ESCROW_HOLDS_PATH}/${encodeURIComponent(challengeId)}/release`,
        escrowReleaseRequestSchema.parse({ party, attempt }),
      ),
  };
}
