import { Kind, parse, print, type DocumentNode, type FieldNode, type GraphQLSchema } from 'graphql';

/** The identity mutations whose result carries the new session's `accessToken`. */
export const SESSION_MUTATIONS = new Set([
  'login',
  'verifyLoginLink',
  'verifyLoginCode',
  'verifyUser',
]);
const MENTIONS_SESSION_MUTATION = /\b(login|verifyLoginLink|verifyLoginCode|verifyUser)\b/;
/** The response key under which the gateway asks for the token itself, removed before sending. */
export const TOKEN_KEY = '_gatewaySessionToken';

const TOKEN_FIELD: FieldNode = {
  kind: Kind.FIELD,
  alias: { kind: Kind.NAME, value: TOKEN_KEY },
  name: { kind: Kind.NAME, value: 'accessToken' },
};

/**
 * Whether the mutation's result type has an `accessToken` field. Duck-typed on purpose: the
 * schema may come from another copy of graphql-js (ESM vs CJS), which type guards reject.
 */
function returnsToken(schema: GraphQLSchema, fieldName: string): boolean {
  let type: unknown = schema.getMutationType()?.getFields()[fieldName]?.type;
  while (type && typeof type === 'object' && 'ofType' in type) type = type.ofType;
  const fields = (type as { getFields?: () => Record<string, unknown> } | undefined)?.getFields?.();
  return fields !== undefined && 'accessToken' in fields;
}

const isSessionField = (schema: GraphQLSchema, field: FieldNode) =>
  SESSION_MUTATIONS.has(field.name.value) &&
  field.selectionSet !== undefined &&
  returnsToken(schema, field.name.value);

function withTokenField(field: FieldNode): FieldNode {
  const selections = [...(field.selectionSet?.selections ?? []), TOKEN_FIELD];
  return { ...field, selectionSet: { kind: Kind.SELECTION_SET, selections } };
}

/**
 * The web app never selects `accessToken` (the token must not reach the browser's scripts), so
 * the gateway adds `_gatewaySessionToken: accessToken` to each session mutation selected at the
 * root of a mutation. Returns the rewritten query, or null when there is nothing to add.
 */
export function withTokenSelection(query: string, schema: GraphQLSchema): string | null {
  if (!MENTIONS_SESSION_MUTATION.test(query)) return null;
  let document: DocumentNode;
  try {
    document = parse(query);
  } catch {
    return null; // Apollo reports the syntax error itself
  }
  let changed = false;
  const definitions = document.definitions.map((definition) => {
    if (definition.kind !== Kind.OPERATION_DEFINITION || definition.operation !== 'mutation') {
      return definition;
    }
    const selections = definition.selectionSet.selections.map((selection) => {
      if (selection.kind !== Kind.FIELD || !isSessionField(schema, selection)) return selection;
      changed = true;
      return withTokenField(selection);
    });
    return { ...definition, selectionSet: { ...definition.selectionSet, selections } };
  });
  return changed ? print({ ...document, definitions }) : null;
}
