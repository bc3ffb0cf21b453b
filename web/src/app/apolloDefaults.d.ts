import '@apollo/client';

// Apollo Client 4 types results by the default options in force; declare ours (see
// createApolloClient): errors come back alongside data instead of being thrown.
declare module '@apollo/client' {
  export namespace ApolloClient {
    export namespace DeclareDefaultOptions {
      interface WatchQuery {
        errorPolicy: 'all';
      }
      interface Query {
        errorPolicy: 'all';
      }
      interface Mutate {
        errorPolicy: 'all';
      }
    }
  }
}
