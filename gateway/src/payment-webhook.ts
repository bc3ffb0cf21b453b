import express, { type RequestHandler } from 'express';
import type { Logger } from '@challenge/kit';
import { ipRateLimit, type IpRateLimitOptions } from './rate-limit.ts';

/** Public path the payment provider posts to (Mollie: `id=tr_...`, form-encoded). */
export const PAYMENT_WEBHOOK_PUBLIC_PATH = '/api/payments/webhook';

/**
 * Forwards the provider's webhook to wallet. Outside the geofence on purpose: the provider's
 * servers are not our users. Safe to expose: the body is only an id, and wallet asks the
 * provider for the payment's real state before it moves any money.
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
      try {
        const response = await fetch(target, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
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
