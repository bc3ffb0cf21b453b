/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** GraphQL endpoint; same origin as the SPA. Defaults to `/graphql`. */
  readonly VITE_GRAPHQL_PATH?: string;
  /** International phone number (digits only) of the support chat, e.g. 31612345678. */
  readonly VITE_SUPPORT_WHATSAPP_NUMBER?: string;
  /** Support e-mail address for the contact page (optional). */
  readonly VITE_SUPPORT_EMAIL?: string;
  readonly VITE_SOCIAL_INSTAGRAM_URL?: string;
  readonly VITE_SOCIAL_TIKTOK_URL?: string;
  readonly VITE_SOCIAL_YOUTUBE_URL?: string;
  readonly VITE_SOCIAL_FACEBOOK_URL?: string;
  readonly VITE_SOCIAL_X_URL?: string;
  readonly VITE_SOCIAL_LINKEDIN_URL?: string;
  readonly VITE_APP_VERSION?: string;
  /** Set by the build (vite.config.ts), never by hand: this build's id, absent in dev and tests. */
  readonly VITE_BUILD_ID?: string;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}

/** A part of a language's texts (vite.config.ts, app/translationParts.ts). */
declare module 'virtual:translations/*' {
  const part: Record<string, unknown>;
  export default part;
}
