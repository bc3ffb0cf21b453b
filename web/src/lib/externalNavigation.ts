/**
 * Leaving the single-page app for another site (a payment provider's checkout). One object, so
 * that tests can replace `assign` (jsdom's `window.location` cannot be stubbed).
 */
export const externalNavigation = {
  assign(url: string): void {
    window.location.assign(url);
  },
};

/** Only absolute http(s) addresses are followed: never `javascript:` or a relative path. */
export function isHttpUrl(value: string | null | undefined): value is string {
  if (!value) return false;
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:';
  } catch {
    return false;
  }
}
