import { z } from 'zod';
import { AppError, isErrorIdentifier } from './errors.ts';
import { traceHeaders } from './tracing.ts';

/**
 * The internal profile update (docs/adr/0049): media runs a multipart `updateProfile` (the avatar
 * file), stores the re-encoded picture, then hands the whole update to identity, which owns the
 * profile. Like the escrow hold it never passes the gateway and carries INTERNAL_API_TOKEN.
 * `POST ${PROFILE_UPDATES_PATH}/<userId>`.
 */
export const PROFILE_UPDATES_PATH = '/internal/profiles';

/**
 * The one shape of an avatar's object key: `avatars/<userId>/<uuid>.webp`, written only by media
 * after re-encoding. Identity stores nothing else as an avatar.
 */
export const AVATAR_KEY_PATTERN =
  /^avatars\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.webp$/;

/** Whether `key` is an avatar key of `userId` (never another user's, never a URL). */
export function isAvatarKeyOf(key: string, userId: string): boolean {
  return AVATAR_KEY_PATTERN.exec(key)?.[1] === userId.toLowerCase();
}

/**
 * The fields as the client sent them (identity validates them as for a JSON updateProfile);
 * `avatarKey`: a new key, null to remove the avatar, absent to keep it.
 */
export const profileUpdateRequestSchema = z.object({
  displayName: z.unknown().optional(),
  bio: z.unknown().optional(),
  hideAvailableAmount: z.unknown().optional(),
  avatarKey: z.string().max(200).nullable().optional(),
});
export type ProfileUpdateRequest = z.infer<typeof profileUpdateRequestSchema>;

/** What identity answers: the fields as updateProfile returns them (`avatar` is a URL). */
export interface ProfileUpdateView {
  displayName: string | null;
  bio: string | null;
  avatar: string | null;
  /** The key the update replaced (media deletes its object), null when there was none. */
  previousAvatarKey: string | null;
}

export interface ProfileClient {
  /** Applies the update or throws the AppError identity answered (invalid_input, ...). */
  update(userId: string, request: ProfileUpdateRequest): Promise<ProfileUpdateView>;
}

/** The client media uses; identity answers `{status, profile}`. */
export function createProfileClient(options: {
  baseUrl: string;
  token: string;
  fetch?: typeof fetch;
}): ProfileClient {
  return {
    async update(userId, request) {
      const path = `${PROFILE_UPDATES_PATH}/${encodeURIComponent(userId)}`;
      const response = await (options.fetch ?? fetch)(new URL(path, options.baseUrl), {
        method: 'POST',
        headers: {
          authorization: `Bearer ${options.token}`,
          'content-type': 'application/json',
          // The caller's trace goes on in the service it calls (docs/adr/0080).
          ...traceHeaders(),
        },
        body: JSON.stringify(profileUpdateRequestSchema.parse(request)),
        signal: AbortSignal.timeout(10_000),
      });
      const payload = (await response.json().catch(() => null)) as {
        status?: { success?: boolean; identifier?: string; message?: string };
        profile?: ProfileUpdateView;
      } | null;
      if (response.ok && payload?.status?.success && payload.profile) return payload.profile;
      const identifier = payload?.status?.identifier;
      throw new AppError(
        identifier && isErrorIdentifier(identifier) ? identifier : 'generic_error',
        payload?.status?.message,
      );
    },
  };
}
