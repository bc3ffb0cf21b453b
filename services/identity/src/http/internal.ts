import {
  AppError,
  PROFILE_UPDATES_PATH,
  failure,
  okStatus,
  profileUpdateRequestSchema,
  requireInternalToken,
  statusForError,
  type Logger,
} from '@challenge/kit';
import express, { type Express } from 'express';
import { z } from 'zod';
import type { Database } from '../data/db.ts';
import { findProfileById } from '../data/profiles.ts';
import { updateOwnProfile } from '../domain/profiles.ts';

/**
 * Identity's internal API (docs/adr/0049): media hands it a multipart updateProfile once the
 * avatar is stored. Never routed by the gateway; INTERNAL_API_TOKEN on every call.
 */
export function internalRoutes(deps: { db: Database; internalApiToken: string; logger: Logger }) {
  return (app: Express) => {
    const internal = express.Router();
    internal.use(requireInternalToken(deps.internalApiToken), express.json({ limit: '16kb' }));
    internal.post('/:userId', async (req, res) => {
      const userId = z.uuid().safeParse(req.params.userId);
      const request = profileUpdateRequestSchema.safeParse(req.body ?? {});
      if (!userId.success || !request.success) {
        res.status(400).json(failure('invalid_input'));
        return;
      }
      try {
        const user = await findProfileById(deps.db, userId.data);
        if (!user) throw new AppError('authorized_user_not_found');
        const { avatarKey, ...fields } = request.data;
        const profile = await updateOwnProfile(
          deps.db,
          { id: user.id },
          { fields, ...(avatarKey !== undefined ? { avatarKey } : {}) },
        );
        res.json({ status: okStatus(), profile });
      } catch (error) {
        const status = statusForError(deps.logger, error);
        const code = status.identifier === 'generic_error' ? 500 : 409;
        res.status(status.identifier === 'invalid_input' ? 400 : code).json({ status });
      }
    });
    app.use(PROFILE_UPDATES_PATH, internal);
  };
}
