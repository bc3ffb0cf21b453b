/**
 * Build-time configuration from `import.meta.env` (VITE_* variables), read in this one place.
 * See web/README.md for the list.
 */
const env = import.meta.env;

export type SocialNetwork = 'instagram' | 'tiktok' | 'youtube' | 'facebook' | 'x' | 'linkedin';

export interface SocialLink {
  network: SocialNetwork;
  url: string;
}

function nonEmpty(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed ? trimmed : undefined;
}

const supportNumber = nonEmpty(env.VITE_SUPPORT_WHATSAPP_NUMBER)?.replace(/\D/g, '');

export const appConfig = {
  graphqlPath: nonEmpty(env.VITE_GRAPHQL_PATH) ?? '/graphql',
  /** The gateway's location verdict (same origin): `{ allowed, country, continent, identifier }`. */
  locationPath: '/api/location',
  clientName: 'web',
  clientVersion: nonEmpty(env.VITE_APP_VERSION) ?? '0.0.0',
  /** This build's id (production builds only); compared with `latestBuildPath` on a timer. */
  buildId: nonEmpty(env.VITE_BUILD_ID),
  latestBuildPath: '/builds/latest.json',
  /** Chat support link, or undefined when no support number is configured. */
  supportUrl: supportNumber ? `https://wa.me/${supportNumber}` : undefined,
  /** Support e-mail address shown on the contact page, if configured. */
  supportEmail: nonEmpty(env.VITE_SUPPORT_EMAIL),
  /** The sidebar's Support entry without a chat number: the contact page. */
  contactPath: '/contact',
  socialLinks: [
    {
      network: 'instagram',
      url: nonEmpty(env.VITE_SOCIAL_INSTAGRAM_URL) ?? 'https://www.instagram.com/',
    },
    { network: 'tiktok', url: nonEmpty(env.VITE_SOCIAL_TIKTOK_URL) ?? 'https://www.tiktok.com/' },
    {
      network: 'youtube',
      url: nonEmpty(env.VITE_SOCIAL_YOUTUBE_URL) ?? 'https://www.youtube.com/',
    },
    {
      network: 'facebook',
      url: nonEmpty(env.VITE_SOCIAL_FACEBOOK_URL) ?? 'https://www.facebook.com/',
    },
    { network: 'x', url: nonEmpty(env.VITE_SOCIAL_X_URL) ?? 'https://x.com/' },
    {
      network: 'linkedin',
      url: nonEmpty(env.VITE_SOCIAL_LINKEDIN_URL) ?? 'https://www.linkedin.com/',
    },
  ] satisfies SocialLink[] as readonly SocialLink[],
} as const;
