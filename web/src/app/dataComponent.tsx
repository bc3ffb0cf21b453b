import { lazy, Suspense, type ComponentType, type ReactNode } from 'react';
import { useHydrated } from '../lib/useHydrated';
import { loadTranslationsInUse } from './i18n';

export interface DataComponentOptions {
  /**
   * Shown while the code loads; false leaves that to a Suspense boundary above (the layouts'
   * boundary around the page). The server's prerender waits for the code instead.
   */
  fallback?: ReactNode | false;
  /** Rendered only in the browser and after hydration (what the server cannot know: `?modal=`). */
  clientOnly?: boolean;
}

/**
 * A component whose code (and with it Apollo, the GraphQL documents and the texts beyond the
 * shell's) loads on first render, inside the app's ApolloProvider (apolloBoundary.tsx). The shell around it hydrates without
 * waiting for it; while it loads, React keeps the prerendered HTML of a hydrating page in place.
 */
export function dataComponent<P extends object>(
  load: () => Promise<ComponentType<P>>,
  { fallback = null, clientOnly = false }: DataComponentOptions = {},
): ComponentType<P> {
  const Lazy = lazy(async () => {
    const [Component, { withClient }] = await Promise.all([
      load(),
      import('./apolloBoundary'),
      // The shell's texts are there from the start; the rest of them come with the first page.
      loadTranslationsInUse(),
    ]);
    return { default: withClient(Component) };
  });
  function DataComponent(props: P) {
    const element = <Lazy {...props} />;
    return fallback === false ? element : <Suspense fallback={fallback}>{element}</Suspense>;
  }
  if (!clientOnly) return DataComponent;
  // Only a client-only part asks whether hydration is over: the answer comes as a blocking
  // re-render of whoever asked, which for a page or the sidebar was all of it, unsliced, right
  // after the hydration's last slice (docs/adr/0101).
  function ClientOnlyDataComponent(props: P) {
    const hydrated = useHydrated();
    return hydrated ? <DataComponent {...props} /> : null;
  }
  return ClientOnlyDataComponent;
}
