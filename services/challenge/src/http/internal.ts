import {
  PROOF_UPLOADS_PATH,
  failure,
  okStatus,
  proofUploadRequestSchema,
  requireInternalToken,
  statusForError,
  type Logger,
} from '@challenge/kit';
import express, { type Express } from 'express';
import type { Database } from '../data/db.ts';
import { registerProofUpload } from '../domain/timers.ts';

/**
 * Challenge's internal API (docs/adr/0071): media registers each completed proof upload before
 * it processes it. Never routed by the gateway; INTERNAL_API_TOKEN on every call.
 */
export function internalRoutes(deps: {
  db: Database;
  internalApiToken: string;
  clock: () => Date;
  logger: Logger;
}) {
  return (app: Express) => {
    const internal = express.Router();
    internal.use(requireInternalToken(deps.internalApiToken), express.json({ limit: '4kb' }));
    internal.post('/', async (req, res) => {
      const request = proofUploadRequestSchema.safeParse(req.body ?? {});
      if (!request.success) {
        res.status(400).json(failure('invalid_input'));
        return;
      }
      try {
        const upload = await registerProofUpload(deps.db, request.data, deps.clock());
        res.json({ status: okStatus(), upload });
      } catch (error) {
        const status = statusForError(deps.logger, error);
        res.status(status.identifier === 'generic_error' ? 500 : 409).json({ status });
      }
    });
    app.use(PROOF_UPLOADS_PATH, internal);
  };
}
