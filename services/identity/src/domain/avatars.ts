import { AVATAR_KEY_PATTERN } from '@challenge/kit';

/**
 * Avatars (docs/adr/0049): identity stores the object key media wrote
 * (`avatars/<userId>/<uuid>.webp`) and gives clients a URL of the site's image path (`/_ipx`,
 * docs/adr/0039) at AVATAR_WIDTH; the web asks the same path for the widths it shows (1x, 2x).
 */
export const AVATAR_WIDTH = 256;

/** The URL of a stored avatar; null for none, and for anything that is not a key media wrote. */
export function avatarUrl(key: string | null | undefined): string | null {
  if (!key || !AVATAR_KEY_PATTERN.test(key)) return null;
  return `/_ipx/w_${AVATAR_WIDTH}&f_webp/${key}`;
}

/** Field resolvers of every type whose `avatar` holds a key in its parent object. */
export const avatarField = {
  avatar: (parent: { avatar?: string | null }) => avatarUrl(parent.avatar),
};
