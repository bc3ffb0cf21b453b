import { ApolloProvider } from '@apollo/client/react';
import { use, useContext, type ComponentType } from 'react';
import { ApolloSourceContext } from './apolloSource';

/**
 * `Component` inside the app's ApolloProvider, waiting (suspending) for the client when it is not
 * loaded yet. Only ever imported lazily (dataComponent.tsx): it brings Apollo with it. Without a
 * source (tests under MockedProvider) the component renders as it is.
 */
export function withClient<P extends object>(Component: ComponentType<P>): ComponentType<P> {
  function WithClient(props: P) {
    const source = useContext(ApolloSourceContext);
    if (!source) return <Component {...props} />;
    const client = source.current() ?? use(source.load());
    return (
      <ApolloProvider client={client}>
        <Component {...props} />
      </ApolloProvider>
    );
  }
  WithClient.displayName = `WithClient(${Component.displayName ?? Component.name})`;
  return WithClient;
}
