import { z } from 'zod';
import { AppError, isErrorIdentifier } from './errors.ts';

/**
 * The registration of a completed proof upload (docs/adr/0071): when a proof video's last byte
 * is stored, media asks challenge, which owns the expiration date, whether the upload still
 * counts. Challenge decides under the challenge row's lock, the same lock its scheduler's expiry
 * takes, so an upload is either registered before the expiry (and the challenge, or the duel's
 * side, then waits for the processing) or refused (`challenge_expired`). Like the escrow hold it
 * never passes the gateway and carries INTERNAL_API_TOKEN. `POST ${PROOF_UPLOADS_PATH}`.
 */
export const PROOF_UPLOADS_PATH = '/internal/proof-uploads';

export const proofUploadRequestSchema = z.object({
  challengeId: z.uuid(),
  videoId: z.uuid(),
  /** The uploader: the challenged user of a solo challenge, either party of a duel. */
  performerId: z.uuid(),
});
export type ProofUploadRequest = z.infer<typeof proofUploadRequestSchema>;

export interface ProofUploadView {
  challengeId: string;
  videoId: string;
  performerId: string;
  /** When challenge registered the upload (ISO 8601), before the expiration date. */
  registeredAt: string;
}

export interface ProofUploadClient {
  /**
   * Registers the upload, or throws the AppError challenge answered: challenge_expired past the
   * expiration date, invalid_action when the performer has no proof to give (any more),
   * challenge_not_found for an unknown challenge or one staff hid; generic_error when challenge
   * cannot be reached. Repeating it for the same video answers the same registration.
   */
  register(request: ProofUploadRequest): Promise<ProofUploadView>;
}

/** The client media uses; challenge answers `{status, upload}`. */
export function createProofUploadClient(options: {
  baseUrl: string;
  token: string;
  fetch?: typeof fetch;
}): ProofUploadClient {
  return {
    async register(request) {
      const response = await (options.fetch ?? fetch)(
        new URL(PROOF_UPLOADS_PATH, options.baseUrl),
        {
          method: 'POST',
          headers: { authorization: `Bearer ${options.token}`, 'content-type': 'application/json' },
          body: JSON.stringify(proofUploadRequestSchema.parse(request)),
          signal: AbortSignal.timeout(10_000),
        },
      );
      const payload = (await response.json().catch(() => null)) as {
        status?: { success?: boolean; identifier?: string; message?: string };
        upload?: ProofUploadView;
      } | null;
      if (response.ok && payload?.status?.success && payload.upload) return payload.upload;
      const identifier = payload?.status?.identifier;
      throw new AppError(
        identifier && isErrorIdentifier(identifier) ? identifier : 'generic_error',
        payload?.status?.message,
      );
    },
  };
}
