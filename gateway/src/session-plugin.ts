import type { ApolloServerPlugin } from '@apollo/server';
import { Kind, type DocumentNode, type FieldNode, type OperationDefinitionNode } from 'graphql';
import type { GatewayContext } from './context.ts';
import { clearedSessionCookie, sessionCookie } from './cookies.ts';
import { responseKey, rootFields } from './operations.ts';
import { SESSION_MUTATIONS, TOKEN_KEY, withTokenSelection } from './token-selection.ts';

type Data = Record<string, unknown>;

const isRecord = (value: unknown): value is Data => typeof value === 'object' && value !== null;

/** Removes the injected token from each session mutation's result; returns the token, if any. */
function takeToken(data: Data, operation: OperationDefinitionNode): string | null {
  let token: string | null = null;
  for (const field of operation.selectionSet.selections) {
    if (field.kind !== Kind.FIELD || !SESSION_MUTATIONS.has(field.name.value)) continue;
    const result = data[responseKey(field)];
    if (!isRecord(result) || !(TOKEN_KEY in result)) continue;
    const value = result[TOKEN_KEY];
    delete result[TOKEN_KEY];
    if (typeof value === 'string' && value) token = value;
  }
  return token;
}

/** Whether the operation ran `logout` and it did not report a failure. */
function loggedOut(
  data: Data,
  document: DocumentNode,
  operation: OperationDefinitionNode,
): boolean {
  return rootFields(document, operation).some((field: FieldNode) => {
    if (field.name.value !== 'logout') return false;
    const result = data[responseKey(field)];
    return isRecord(result) && !(isRecord(result.status) && result.status.success === false);
  });
}

/**
 * The session cookie: set from a session mutation's token, cleared after `logout` succeeds and
 * when a subgraph refused the token (the response then becomes HTTP 401).
 */
export function sessionPlugin(): ApolloServerPlugin<GatewayContext> {
  return {
    async requestDidStart({ request, schema }) {
      const rewritten = request.query ? withTokenSelection(request.query, schema) : null;
      if (rewritten) {
        request.query = rewritten;
        // The client's persisted-query hash no longer matches: run it as a plain query.
        if (request.extensions?.persistedQuery) delete request.extensions.persistedQuery;
      }
      return {
        async willSendResponse({ response, contextValue, document, operation }) {
          const { headers } = response.http;
          const secure = contextValue.secureCookies;
          if (contextValue.refusal) {
            response.http.status = 401;
            headers.set('set-cookie', clearedSessionCookie(secure));
            return;
          }
          const data = response.body.kind === 'single' ? response.body.singleResult.data : null;
          if (!data || !document || !operation) return;
          const token = rewritten ? takeToken(data, operation) : null;
          if (token) headers.set('set-cookie', sessionCookie(token, secure));
          if (loggedOut(data, document, operation)) {
            headers.set('set-cookie', clearedSessionCookie(secure));
          }
        },
      };
    },
  };
}
