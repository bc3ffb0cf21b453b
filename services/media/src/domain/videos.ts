import type { AuthUser } from '@challenge/kit';
import { z } from 'zod';
import { findChallengeAccess } from '../data/challenges.ts';
import type { Database } from '../data/db.ts';
import type { ObjectStorage } from '../data/storage.ts';
import { isParty, isStaff, mayViewChallenge } from './challenges.ts';
import { findVideosOfChallenge, hasVideoOfChallenge, type VideoRecord } from '../data/videos.ts';

/** How long a playback or download link works: long enough to watch, short enough not to spread. */
export const VIDEO_URL_TTL_SECONDS = 60 * 60;

export interface ChallengeVideoView {
  id: string;
  videoSource: string;
  aspectMode: string;
  downloadUrl: string | null;
  thumbnailUrl: string | null;
  recycledFrom: { challengeId: string } | null;
}

/** Who asks, and whose challenge it is (the owner from media's projection of the challenge). */
export interface VideoAudience {
  viewer: Pick<AuthUser, 'id' | 'roles'> | null;
  ownerId: string | null;
}

/** The recycled-proof flag is for the challenge's owner, referees and staff (docs/adr/0038). */
export function maySeeRecycledFlag({ viewer, ownerId }: VideoAudience): boolean {
  if (!viewer) return false;
  if (ownerId !== null && viewer.id === ownerId) return true;
  return viewer.roles.some(
    (role) => role === 'referee' || role === 'moderator' || role === 'admin',
  );
}

export type UrlSigner = Pick<ObjectStorage, 'presignedGetUrl'>;

/** The object a download serves: the original as uploaded when media kept one, else the playable one. */
export const downloadKey = (video: Pick<VideoRecord, 'objectKey' | 'originalKey'>): string =>
  video.originalKey ?? video.objectKey;

/** The name a downloaded video is saved under: the video's id with the stored file's extension. */
export function downloadFileName(
  video: Pick<VideoRecord, 'id' | 'objectKey' | 'originalKey'>,
): string {
  const extension = /\.([a-z0-9]{1,5})$/i.exec(downloadKey(video))?.[1]?.toLowerCase();
  return `challenge-video-${video.id}${extension ? `.${extension}` : ''}`;
}

export async function toVideoView(
  signer: UrlSigner,
  video: VideoRecord,
  audience: VideoAudience = { viewer: null, ownerId: null },
): Promise<ChallengeVideoView> {
  const [videoSource, downloadUrl, thumbnailUrl] = await Promise.all([
    signer.presignedGetUrl(video.objectKey, VIDEO_URL_TTL_SECONDS),
    signer.presignedGetUrl(downloadKey(video), VIDEO_URL_TTL_SECONDS, {
      downloadAs: downloadFileName(video),
    }),
    video.thumbnailKey ? signer.presignedGetUrl(video.thumbnailKey, VIDEO_URL_TTL_SECONDS) : null,
  ]);
  const recycledFrom =
    video.recycledFromChallengeId && maySeeRecycledFlag(audience)
      ? { challengeId: video.recycledFromChallengeId }
      : null;
  return {
    id: video.id,
    videoSource,
    aspectMode: video.aspectMode,
    downloadUrl,
    thumbnailUrl,
    recycledFrom,
  };
}

/**
 * Whether a video of the challenge is uploaded and not yet processed (nor failed), so that the
 * page says "processing" after a reload and to the other party (docs/adr/0053). Only the two
 * parties of a challenge that is not hidden, and staff, are told; anyone else hears false.
 */
export async function hasVideoInProcessing(
  db: Database,
  challengeId: string,
  viewer: Pick<AuthUser, 'id' | 'roles'> | null,
): Promise<boolean> {
  if (!viewer || !z.uuid().safeParse(challengeId).success) return false;
  if (!isStaff(viewer)) {
    const access = await findChallengeAccess(db, challengeId);
    if (!access || access.hiddenAt || !isParty(access, viewer)) return false;
  }
  return hasVideoOfChallenge(db, challengeId, ['uploaded', 'processing']);
}

/**
 * The videos people can watch for a challenge: only processed (ready) ones, newest first, each
 * with short-lived signed links. Media decides everything from its own projection of the
 * challenge (mayViewChallenge; the owner, for the recycled-proof flag): the entity can be queried
 * on media with any representation, whatever fields it claims (issue 18). A viewer who may not
 * see the challenge gets an empty list, as for a challenge without videos, so that the answer
 * does not tell whether there are any.
 */
export async function listPlayableVideos(
  db: Database,
  signer: UrlSigner,
  challengeId: string,
  viewer: Pick<AuthUser, 'id' | 'roles'> | null,
): Promise<ChallengeVideoView[]> {
  if (!z.uuid().safeParse(challengeId).success) return [];
  const access = await findChallengeAccess(db, challengeId);
  if (!mayViewChallenge(access, viewer)) return [];
  const audience: VideoAudience = { viewer, ownerId: access?.ownerId ?? null };
  const videos = await findVideosOfChallenge(db, challengeId, 'ready');
  return Promise.all(videos.map((video) => toVideoView(signer, video, audience)));
}
