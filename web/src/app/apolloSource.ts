import type { ApolloClient } from '@apollo/client';
import { createContext } from 'react';

/**
 * The app's Apollo client, loaded on first use: Apollo (about 60 KB gzipped) is not part of the
 * JavaScript a page needs to show and hydrate its shell, only of the parts that read or write
 * data (docs/adr/0081). Nothing here imports Apollo's code, only its types.
 */
export interface ApolloSource {
  /** The client once it exists, else null. */
  current(): ApolloClient | null;
  /** Loads Apollo and creates the client, once; a failed load is tried again on the next call. */
  load(): Promise<ApolloClient>;
}

export function createApolloSource(create: () => Promise<ApolloClient>): ApolloSource {
  let client: ApolloClient | null = null;
  let pending: Promise<ApolloClient> | null = null;
  return {
    current: () => client,
    load() {
      pending ??= create().then(
        (created) => (client = created),
        (error: unknown) => {
          pending = null;
          throw error;
        },
      );
      return pending;
    },
  };
}

/** Null in tests that provide Apollo themselves (MockedProvider). */
export const ApolloSourceContext = createContext<ApolloSource | null>(null);
