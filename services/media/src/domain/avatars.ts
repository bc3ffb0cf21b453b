import { randomUUID } from 'node:crypto';
import {
  AppError,
  isAvatarKeyOf,
  type AuthUser,
  type Logger,
  type ProfileClient,
  type ProfileUpdateView,
} from '@challenge/kit';
import { AvatarImageError, reencodeAvatar } from '../data/images.ts';
import type { ObjectStorage } from '../data/storage.ts';
import { sniffImage, sniffStream } from './sniff.ts';
import { uploadFailure, type Upload } from './uploads.ts';

/**
 * The multipart updateProfile (docs/adr/0049): identity owns the profile, media owns the file.
 * Media reads the avatar (jpg/png by its content, at most MAX_AVATAR_BYTES as it streams),
 * re-encodes it without metadata, stores it under avatars/<userId>/, and hands the whole update
 * to identity's internal API; then the replaced picture is deleted.
 */

/** 10 MB (decimal, as people read it): a phone photo fits, a bomb in disguise does not. */
export const MAX_AVATAR_BYTES = 10 * 1000 * 1000;

const INVALID_AVATAR = 'Only jpg, jpeg and png files are allowed.';

export const avatarKey = (userId: string) => `avatars/${userId}/${randomUUID()}.webp`;

export interface AvatarDeps {
  storage: ObjectStorage;
  /** Identity's internal API; null where media runs without it (tests of videos). */
  profiles: ProfileClient | null;
  logger: Logger;
}

export interface ProfileFields {
  displayName?: unknown;
  bio?: unknown;
  hideAvailableAmount?: unknown;
  showPrivateChallenges?: unknown;
}

/** The file's bytes, refused with invalid_file or "File is too large" while they stream. */
async function readAvatar(upload: Upload, logger: Logger): Promise<Buffer> {
  const file = await upload.file;
  try {
    const { body } = await sniffStream(file.stream, {
      maxBytes: MAX_AVATAR_BYTES,
      sniff: sniffImage,
      invalidMessage: INVALID_AVATAR,
    });
    const chunks: Buffer[] = [];
    for await (const chunk of body) chunks.push(chunk);
    return Buffer.concat(chunks);
  } catch (error) {
    // The rest of the part is not read: the route answers and closes the connection.
    file.stream.resume();
    throw uploadFailure(logger, error);
  }
}

async function reencoded(bytes: Buffer): Promise<Buffer> {
  try {
    return await reencodeAvatar(bytes);
  } catch (error) {
    if (error instanceof AvatarImageError) {
      throw new AppError(
        'invalid_file',
        error.reason === 'too_many_pixels' ? 'The picture has too many pixels.' : INVALID_AVATAR,
      );
    }
    throw error;
  }
}

/** Deletes a replaced avatar and its /_ipx renditions; a failure only leaves garbage behind. */
async function removeAvatar(deps: AvatarDeps, userId: string, key: string): Promise<void> {
  if (!isAvatarKeyOf(key, userId)) return;
  try {
    const renditions = await deps.storage.listKeys(`cache/ipx/${key}/`);
    await Promise.all([key, ...renditions].map((each) => deps.storage.removeObject(each)));
  } catch (error) {
    deps.logger.warn({ err: error, key }, 'could not delete a replaced avatar');
  }
}

/**
 * updateProfile with the fields of the request and, when `avatar` is a file, the new picture
 * (null removes the avatar, undefined keeps it). One answer: identity's view of the profile.
 */
export async function updateProfileWithAvatar(
  deps: AvatarDeps,
  user: AuthUser,
  input: { fields: ProfileFields; avatar: Upload | null | undefined },
): Promise<Omit<ProfileUpdateView, 'previousAvatarKey'>> {
  if (!deps.profiles) {
    throw new AppError('upload_error', 'Avatar uploads are not configured here.');
  }
  let key: string | null | undefined = input.avatar === null ? null : undefined;
  if (input.avatar) {
    const webp = await reencoded(await readAvatar(input.avatar, deps.logger));
    key = avatarKey(user.id);
    await deps.storage.putObject(key, webp, 'image/webp');
  }
  let view: ProfileUpdateView;
  try {
    view = await deps.profiles.update(user.id, {
      ...input.fields,
      ...(key !== undefined ? { avatarKey: key } : {}),
    });
  } catch (error) {
    // Refused (a field invalid) or unreachable: the new picture belongs to nobody.
    if (key) await removeAvatar(deps, user.id, key);
    throw error;
  }
  if (view.previousAvatarKey) await removeAvatar(deps, user.id, view.previousAvatarKey);
  return { displayName: view.displayName, bio: view.bio, avatar: view.avatar };
}

/**
 * Clock difference allowed between identity (the event's time) and the store (an object's time):
 * an object this much older than the change may still be an upload in flight.
 */
export const SWEEP_MARGIN_MS = 5_000;

/**
 * After identity's profile change (UserProfileUpdated) or erasure (UserDeleted): every picture
 * under avatars/<userId>/ other than `keep` that was stored before the change is no one's any
 * more, with its renditions. Newer objects belong to an upload still on its way. Deleting is
 * idempotent, so a redelivered event does no harm; a store outage throws (the consumer retries).
 */
export async function sweepAvatars(
  storage: ObjectStorage,
  userId: string,
  { keep, before }: { keep: string | null; before: Date },
): Promise<string[]> {
  const removed: string[] = [];
  const cutoff = before.getTime() - SWEEP_MARGIN_MS;
  for (const key of await storage.listKeys(`avatars/${userId}/`)) {
    if (key === keep || !isAvatarKeyOf(key, userId)) continue;
    const stored = await storage.statObject(key);
    if (stored && stored.lastModified.getTime() >= cutoff) continue;
    const renditions = await storage.listKeys(`cache/ipx/${key}/`);
    for (const each of [...renditions, key]) await storage.removeObject(each);
    removed.push(key);
  }
  return removed;
}
