import express, { type RequestHandler } from 'express';
import { traceHeaders, type Logger } from '@challenge/kit';
import { ipRateLimit, type IpRateLimitOptions } from './rate-limit.ts';

/** Public path the payment provider posts to (Mollie: `id=tr_...`, form-encoded). */
export const PAYMENT_WEBHOOK_PUBLIC_PATH = '/api/payments/webhook';

/** A payment id as the provider writes it (Mollie: `tr_` and letters and digits), as wallet checks it. */
const PAYMENT_ID = /^[A-Za-z0-9_]{1,64}$/;

/**
 * Forwards the provider's webhook to wallet. Outside the geofence on purpose: the provider's
 * servers are not our users. Safe to expose: the body is only an id, and wallet asks the
 * provider for the payment's real state before it moves any money. Nothing of the request but a
 * well-formed id reaches wallet: a fixed path, a body rebuilt from the id.
 */
export function paymentWebhook(
  walletGraphqlUrl: string,
  logger: Logger,
  limit: IpRateLimitOptions,
): RequestHandler[] {
  const target = new URL('/webhooks/payments', walletGraphqlUrl);
  return [
    // Per client IP, before anything reaches wallet (and wallet the provider).
    ipRateLimit(limit),
    express.urlencoded({ extended: false, limit: '4kb' }),
    async (req, res) => {
      const id = typeof req.body?.id === 'string' ? req.body.id : '';
      if (!PAYMENT_ID.test(id)) {
        res.status(400).type('text/plain').send('failed');
        return;
      }
      try {
        const response = await fetch(target, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded', ...traceHeaders() },
          body: new URLSearchParams({ id }).toString(),
          signal: AbortSignal.timeout(15_000),
        });
        res
          .status(response.status)
          .type('text/plain')
          .send(response.ok ? 'ok' : 'failed');
      } catch (error) {
        logger.error({ err: error }, 'wallet did not take the payment webhook');
        res.status(502).type('text/plain').send('failed');
      }
    },
  ];
}
