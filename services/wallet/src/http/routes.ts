import {
  AppError,
  ESCROW_HOLDS_PATH,
  escrowHoldRequestSchema,
  escrowReleaseRequestSchema,
  failure,
  okStatus,
  requireInternalToken,
  type Logger,
} from '@challenge/kit';
import express, { type Express, type Response } from 'express';
import { z } from 'zod';
import type { Database } from '../data/db.ts';
import { holdReward, releaseUnusedHold } from '../domain/escrow.ts';
import { applyProviderPayment, type TopUpDeps } from '../domain/payments.ts';

/** Webhook path on this service; the gateway forwards its public /api/payments/webhook here. */
export const PAYMENT_WEBHOOK_PATH = '/webhooks/payments';

function answerError(res: Response, logger: Logger, error: unknown) {
  if (error instanceof AppError) {
    const status = error.identifier === 'invalid_input' ? 400 : 409;
    res.status(status).json(failure(error.identifier, error.message));
    return;
  }
  logger.error({ err: error }, 'internal call failed');
  res.status(500).json(failure('generic_error'));
}

export function walletRoutes(deps: {
  db: Database;
  internalApiToken: string;
  topUps: TopUpDeps;
  logger: Logger;
}) {
  const { db, logger } = deps;
  return (app: Express) => {
    const internal = express.Router();
    internal.use(requireInternalToken(deps.internalApiToken), express.json({ limit: '16kb' }));
    internal.post('/', async (req, res) => {
      const request = escrowHoldRequestSchema.safeParse(req.body);
      if (!request.success) {
        res.status(400).json(failure('invalid_input', request.error.issues[0]?.message));
        return;
      }
      try {
        const hold = await holdReward(db, request.data);
        res.json({ status: okStatus(), hold });
      } catch (error) {
        answerError(res, logger, error);
      }
    });
    internal.post('/:challengeId/release', async (req, res) => {
      const body = escrowReleaseRequestSchema.safeParse(req.body ?? {});
      if (!z.uuid().safeParse(req.params.challengeId).success || !body.success) {
        res.status(400).json(failure('invalid_input'));
        return;
      }
      try {
        const hold = await releaseUnusedHold(
          db,
          req.params.challengeId,
          body.data.party ?? 'owner',
          body.data.attempt,
        );
        res.json({ status: okStatus(), hold });
      } catch (error) {
        answerError(res, logger, error);
      }
    });
    app.use(ESCROW_HOLDS_PATH, internal);

    // Mollie posts `id=tr_...` and retries until it gets a 2xx; a 500 here asks for that retry.
    app.post(
      PAYMENT_WEBHOOK_PATH,
      express.urlencoded({ extended: false, limit: '4kb' }),
      async (req, res) => {
        const id = typeof req.body?.id === 'string' ? req.body.id : '';
        if (!/^[A-Za-z0-9_]{1,64}$/.test(id)) {
          res.status(400).json(failure('invalid_input'));
          return;
        }
        try {
          await applyProviderPayment(deps.topUps, id);
          res.status(200).send('ok');
        } catch (error) {
          const providerStatus = (error as { statusCode?: number }).statusCode;
          if (providerStatus === 404) {
            res.status(200).send('ok'); // not a payment of ours: nothing to retry
            return;
          }
          logger.error({ err: error, id }, 'payment webhook failed; the provider will retry');
          res.status(500).json(failure('generic_error'));
        }
      },
    );
  };
}
