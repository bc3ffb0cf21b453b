import type { ApolloServerPlugin } from '@apollo/server';
import { BREAK, GraphQLError, visit, type DocumentNode } from 'graphql';

/**
 * PostgreSQL text cannot hold NUL (U+0000): a string with one that reached a query failed in the
 * database, an unexpected fault (generic_error), and whatever the resolver had done before it
 * stayed done. So every subgraph refuses such a request before it runs: invalid_input, whichever
 * argument or variable carries it. HTTP 200, as for a status in the envelope, so that the gateway
 * passes the error on instead of reading a failed subgraph.
 */
export function nulFreeInputPlugin(): ApolloServerPlugin {
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ request, document }) {
          if (requestHoldsNul(document, request.variables)) {
            throw new GraphQLError(NUL_REFUSAL, {
              extensions: {
                code: 'BAD_USER_INPUT',
                identifier: 'invalid_input',
                http: { status: 200 },
              },
            });
          }
        },
      };
    },
  };
}

export const NUL_REFUSAL = 'Text must not contain the NUL character (U+0000).';

/** Whether an operation's literal strings or its variables hold a NUL. */
export function requestHoldsNul(document: DocumentNode, variables: unknown): boolean {
  return holdsNul(variables) || documentHoldsNul(document);
}

/** Whether a JSON value (variables) holds a string, or an object key, with a NUL. */
function holdsNul(value: unknown): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  if (typeof value !== 'object' || value === null) return false;
  if (Array.isArray(value)) return value.some(holdsNul);
  return Object.entries(value).some(([key, item]) => key.includes('\u0000') || holdsNul(item));
}

// Apollo hands the same parsed document to every request with the same text: walked once.
const literalsChecked = new WeakMap<DocumentNode, boolean>();

/** Whether a literal string of the document (`"\u0000"` written in the query) holds a NUL. */
function documentHoldsNul(document: DocumentNode): boolean {
  let found = literalsChecked.get(document);
  if (found === undefined) {
    found = false;
    visit(document, {
      StringValue(node) {
        if (!node.value.includes('\u0000')) return undefined;
        found = true;
        return BREAK;
      },
    });
    literalsChecked.set(document, found);
  }
  return found;
}
