import type { AuthUser } from '@challenge/kit';
import { z } from 'zod';
import { findCardMedia } from '../data/challenges.ts';
import type { Database } from '../data/db.ts';
import { mayViewChallenge } from './challenges.ts';
import { VIDEO_URL_TTL_SECONDS, type UrlSigner } from './videos.ts';

/** Per request: the card thumbnail of a challenge (a signed URL, or null). */
export type ThumbnailLoader = (challengeId: string) => Promise<string | null>;

/**
 * The thumbnails of every challenge a response holds, read in ONE query (the gateway sends all
 * the representations of a list in one `_entities` call, whose resolvers run in the same turn of
 * the event loop): 24 cards cost one query, not 24 (docs/adr/0056). Each challenge keeps its
 * own visibility rule (mayViewChallenge): a viewer who may not see it gets null, as for one
 * without a processed video. The URL is signed for an hour, like the videos' own links.
 */
export function createThumbnailLoader(
  db: Database,
  signer: UrlSigner,
  viewer: Pick<AuthUser, 'id' | 'roles'> | null,
): ThumbnailLoader {
  let pending: { ids: Set<string>; result: Promise<Map<string, string | null>> } | null = null;
  const load = async (ids: string[]): Promise<Map<string, string | null>> => {
    const media = await findCardMedia(db, ids);
    const entries = await Promise.all(
      ids.map(async (id): Promise<[string, string | null]> => {
        const card = media.get(id);
        if (!card?.thumbnailKey || !mayViewChallenge(card.access, viewer)) return [id, null];
        return [id, await signer.presignedGetUrl(card.thumbnailKey, VIDEO_URL_TTL_SECONDS)];
      }),
    );
    return new Map(entries);
  };
  return (challengeId) => {
    if (!z.uuid().safeParse(challengeId).success) return Promise.resolve(null);
    if (!pending) {
      const ids = new Set<string>();
      const result = new Promise<void>((resolve) => setImmediate(resolve)).then(() => {
        pending = null;
        return load([...ids]);
      });
      pending = { ids, result };
    }
    pending.ids.add(challengeId);
    return pending.result.then((urls) => urls.get(challengeId) ?? null);
  };
}
