import { startTransition, useEffect, useState, useSyncExternalStore } from 'react';

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

/**
 * Like useHydrated, but what it reveals renders as a transition after hydration: React renders
 * it in slices and yields to the browser between them, rather than in one long task right after
 * the hydration's (docs/adr/0100). True from the start in a render that is not a hydration.
 */
export function useAfterHydration(): boolean {
  const hydrated = useHydrated();
  const [ready, setReady] = useState(hydrated);
  useEffect(() => {
    if (!ready) startTransition(() => setReady(true));
  }, [ready]);
  return ready;
}
