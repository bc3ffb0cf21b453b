import { createHash, timingSafeEqual } from 'node:crypto';
import type { RequestHandler } from 'express';
import type { Logger } from 'pino';
import { z } from 'zod';
import { ERROR_CATALOGUE } from './errors.ts';

/**
 * The gateway's credential (docs/adr/0069): a shared secret the gateway sends with every request
 * it makes to a subgraph (GraphQL, and the uploads and images it forwards to media), and without
 * which a subgraph serves nothing there. So `_entities` with a representation of someone's
 * choosing, `_service`, and media's upload and image endpoints answer the gateway only, never a
 * caller that reached a subgraph's port some other way. Distinct from INTERNAL_API_TOKEN (the
 * services' calls to each other): the gateway, the one process facing the internet, never holds
 * that one, and no service holds this one but to check it.
 */
export const GATEWAY_SECRET_HEADER = 'x-gateway-secret';

const MIN_LENGTH = 32;

/**
 * GATEWAY_SECRET: what the gateway sends and every subgraph accepts. GATEWAY_SECRET_PREVIOUS:
 * a second secret the subgraphs also accept while the secret is rotated (docs/runbook.md); the
 * gateway never sends it.
 */
export const gatewaySecretEnv = z.object({
  GATEWAY_SECRET: z.string().min(MIN_LENGTH, `must be at least ${MIN_LENGTH} characters`),
  GATEWAY_SECRET_PREVIOUS: z
    .string()
    .min(MIN_LENGTH, `must be at least ${MIN_LENGTH} characters`)
    .optional(),
});

/** The secrets a subgraph accepts: the current one, and the previous one during a rollover. */
export function acceptedGatewaySecrets(env: {
  GATEWAY_SECRET: string;
  GATEWAY_SECRET_PREVIOUS?: string;
}): string[] {
  return env.GATEWAY_SECRET_PREVIOUS
    ? [env.GATEWAY_SECRET, env.GATEWAY_SECRET_PREVIOUS]
    : [env.GATEWAY_SECRET];
}

const digest = (value: string) => createHash('sha256').update(value).digest();

const REFUSAL = {
  errors: [
    {
      message: ERROR_CATALOGUE.access_denied,
      extensions: { code: 'FORBIDDEN', identifier: 'access_denied' },
    },
  ],
};

/**
 * Express middleware: the request goes on only if it carries one of `secrets` in
 * GATEWAY_SECRET_HEADER; otherwise 403 access_denied, before anything else reads it (a 403,
 * not a 401: the gateway would take a 401 for a refused user token and end the session). The
 * comparison is constant-time: hashes of equal length, every accepted secret compared.
 */
export function requireGateway(secrets: readonly string[], logger?: Logger): RequestHandler {
  if (secrets.length === 0 || secrets.some((secret) => secret.length < MIN_LENGTH)) {
    throw new Error(`The gateway secret must be at least ${MIN_LENGTH} characters`);
  }
  const accepted = secrets.map(digest);
  return (req, res, next) => {
    const given = digest(req.get(GATEWAY_SECRET_HEADER) ?? '');
    let match = false;
    for (const expected of accepted) match = timingSafeEqual(given, expected) || match;
    if (match) return next();
    // Someone inside the network, or a gateway with another secret (a rotation gone wrong).
    logger?.warn(
      { method: req.method, path: req.originalUrl.split('?')[0], from: req.socket.remoteAddress },
      "refused a request without the gateway's credential",
    );
    res.status(403).json(REFUSAL);
  };
}
