import { useSyncExternalStore } from 'react';

const subscribeNever = () => () => undefined;

/**
 * False on the server (the build's prerender) and while React hydrates a prerendered page, true
 * in every other render; React renders again when it turns true. What the server cannot know
 * (cookies, storage, the query string) waits for it, so that hydration finds the server's HTML.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribeNever,
    () => true,
    () => false,
  );
}
