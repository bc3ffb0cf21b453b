import {
  AppError,
  AuthStateUnavailableError,
  bearerToken,
  failStatus,
  type AuthUser,
  type Logger,
  type TokenVerifier,
} from '@challenge/kit';
import { Router, type Request, type Response } from 'express';
import { z } from 'zod';
import {
  DEFAULT_SESSION_MAX_AGE_MS,
  appendToSession,
  createUploadSession,
  ownSession,
  terminateSession,
  UploadConflictError,
} from '../domain/resumable.ts';
import { MAX_VIDEO_BYTES, type UploadDeps } from '../domain/uploads.ts';

/**
 * The tus 1.0 core protocol with the creation, termination and expiration extensions (ADR 36,
 * ADR 51) for proof videos: `POST` (Upload-Length, Upload-Metadata `challengeId` and
 * `ownVideoConfirmed`) creates an upload, `HEAD` answers its offset, `PATCH` appends at it,
 * `DELETE` cancels it; `OPTIONS` describes the server. The gateway forwards its
 * `/api/uploads/tus` here and names that prefix in `x-forwarded-prefix` for the Location.
 */
export const TUS_PATH = '/uploads/tus';
const TUS_VERSION = '1.0.0';
const TUS_EXTENSIONS = 'creation,termination,expiration';

export interface TusOptions {
  deps: (logger: Logger) => UploadDeps;
  verifier: TokenVerifier;
  checkUser: (user: AuthUser) => Promise<void>;
  logger: Logger;
  /** How long a session lives (its Upload-Expires); the sweep removes older ones. */
  sessionMaxAgeMs?: number;
}

const HTTP_STATUS: Partial<Record<string, number>> = {
  unauthorized: 401,
  banned_user: 401,
  not_found: 404,
  challenge_not_found: 404,
  invalid_action: 403,
  invalid_file: 415,
  invalid_input: 400,
  challenge_video_upload_failed: 400,
};

/** tus keeps 409 for a session in another state than the request assumed (ADR 107). */
function statusOf(error: AppError): number {
  if (error instanceof UploadConflictError) return 409;
  if (error.message === 'File is too large') return 413;
  return HTTP_STATUS[error.identifier] ?? 400;
}

function refuse(res: Response, error: AppError): void {
  res
    .status(statusOf(error))
    .json({ status: failStatus(error.identifier, error.message) });
}

/** `key base64,key base64` -> { key: decoded }. */
function metadataOf(header: string | undefined): Record<string, string> {
  const entries = (header ?? '').split(',').map((pair) => pair.trim().split(' '));
  return Object.fromEntries(
    entries
      .filter(([key]) => key)
      .map(([key, value]) => [key, Buffer.from(value ?? '', 'base64').toString('utf8')]),
  );
}

const creationSchema = z.object({
  challengeId: z.uuid(),
  ownVideoConfirmed: z.enum(['true', 'false']).transform((value) => value === 'true'),
  length: z.coerce.number().int().positive(),
});

export function tusRoutes(options: TusOptions): Router {
  const router = Router();

  async function userOf(req: Request): Promise<AuthUser> {
    const token = bearerToken(req.get('authorization'));
    if (!token) throw new AppError('unauthorized');
    const user = await options.verifier.verify(token);
    await options.checkUser(user);
    return user;
  }

  /** Runs a handler with the caller; catalogue errors become tus-shaped refusals. */
  const handle =
    (run: (req: Request, res: Response, user: AuthUser, deps: UploadDeps) => Promise<void>) =>
    async (req: Request, res: Response) => {
      const logger = options.logger.child({ requestId: req.get('x-request-id') });
      try {
        await run(req, res, await userOf(req), options.deps(logger));
      } catch (error) {
        if (res.headersSent) return;
        if (error instanceof AppError) return refuse(res, error);
        if (error instanceof AuthStateUnavailableError) {
          res.status(503).json({ status: failStatus('generic_error') });
          return;
        }
        logger.error({ err: error }, 'resumable upload failed');
        res.status(500).json({ status: failStatus('upload_error') });
      }
    };

  const maxAgeMs = options.sessionMaxAgeMs ?? DEFAULT_SESSION_MAX_AGE_MS;
  const expiresOf = (createdAt: Date) => new Date(createdAt.getTime() + maxAgeMs).toUTCString();

  // Every answer names the protocol's version, refusals and errors included.
  router.use((_req, res, next) => {
    res.set('tus-resumable', TUS_VERSION);
    next();
  });

  // Discovery needs no Tus-Resumable and no caller (tus: OPTIONS), here and on an upload's URL.
  router.options(['/', '/:id'], (_req, res) => {
    res
      .status(204)
      .set({
        'tus-version': TUS_VERSION,
        'tus-extension': TUS_EXTENSIONS,
        'tus-max-size': String(MAX_VIDEO_BYTES),
      })
      .end();
  });

  // Any other request must speak our version (tus: 412 Precondition Failed, with Tus-Version).
  router.use((req, res, next) => {
    if (req.get('tus-resumable') === TUS_VERSION) return next();
    res
      .status(412)
      .set('tus-version', TUS_VERSION)
      .json({ status: failStatus('invalid_input', `Send Tus-Resumable: ${TUS_VERSION}.`) });
  });

  router.post(
    '/',
    handle(async (req, res, user, deps) => {
      const metadata = metadataOf(req.get('upload-metadata'));
      const parsed = creationSchema.safeParse({ ...metadata, length: req.get('upload-length') });
      if (!parsed.success) throw new AppError('invalid_input');
      const id = await createUploadSession(deps, user, parsed.data);
      const prefix = req.get('x-forwarded-prefix') ?? TUS_PATH;
      res
        .status(201)
        .set({ location: `${prefix}/${id}`, 'upload-expires': expiresOf(new Date()) })
        .end();
    }),
  );

  router.head(
    '/:id',
    handle(async (req, res, user, deps) => {
      if (!z.uuid().safeParse(req.params.id).success) throw new AppError('not_found');
      const session = await ownSession(deps, user, req.params.id as string);
      res
        .status(200)
        .set({
          'upload-offset': String(session.offset),
          'upload-length': String(session.length),
          'cache-control': 'no-store',
          ...(session.videoId
            ? { 'upload-video-id': session.videoId }
            : { 'upload-expires': expiresOf(session.createdAt) }),
        })
        .end();
    }),
  );

  router.patch(
    '/:id',
    handle(async (req, res, user, deps) => {
      if (!z.uuid().safeParse(req.params.id).success) throw new AppError('not_found');
      if (req.get('content-type') !== 'application/offset+octet-stream') {
        throw new AppError('invalid_input', 'Send application/offset+octet-stream.');
      }
      const offset = z.coerce.number().int().nonnegative().safeParse(req.get('upload-offset'));
      if (!offset.success) throw new AppError('invalid_input');
      const result = await appendToSession(deps, user, req.params.id as string, offset.data, req);
      res
        .status(204)
        .set({
          'upload-offset': String(result.offset),
          ...(result.videoId ? { 'upload-video-id': result.videoId } : {}),
        })
        .end();
    }),
  );

  // Termination: the uploader cancels; the stored parts are removed with the session.
  router.delete(
    '/:id',
    handle(async (req, res, user, deps) => {
      if (!z.uuid().safeParse(req.params.id).success) throw new AppError('not_found');
      await terminateSession(deps, user, req.params.id as string);
      res.status(204).end();
    }),
  );

  return router;
}
