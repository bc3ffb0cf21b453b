import { composeSupergraph } from '@challenge/gateway/supergraph';
import {
  buildSchema,
  getNamedType,
  isInputObjectType,
  isLeafType,
  isListType,
  isNonNullType,
  isObjectType,
  type GraphQLField,
  type GraphQLOutputType,
  type GraphQLSchema,
} from 'graphql';

/**
 * The schema clients see: the supergraph composed from the subgraphs' checked-in SDL by the
 * gateway's own function, read as a schema. A new query or mutation appears here by itself.
 * (Built from the SDL text: composition may load another copy of graphql than this module's.)
 */
export function apiSchema(): GraphQLSchema {
  return buildSchema(composeSupergraph());
}

/** Hidden from clients by federation (`@inaccessible`), so not an operation of the API. */
const inaccessible = (field: {
  astNode?: { directives?: readonly { name: { value: string } }[] } | null;
}) =>
  field.astNode?.directives?.some((directive) => directive.name.value === 'inaccessible') ?? false;

export type OperationKind = 'query' | 'mutation';

export interface Operation {
  kind: OperationKind;
  name: string;
  // A field of the API schema, arguments and type included.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  field: GraphQLField<any, any>;
}

/** Every root query and mutation field of the supergraph, queries first, by name. */
export function operations(schema: GraphQLSchema = apiSchema()): Operation[] {
  const of = (kind: OperationKind) => {
    const root = kind === 'query' ? schema.getQueryType() : schema.getMutationType();
    return Object.values(root?.getFields() ?? {})
      .filter((field) => !inaccessible(field))
      .map((field) => ({ kind, name: field.name, field }))
      .sort((a, b) => a.name.localeCompare(b.name));
  };
  return [...of('query'), ...of('mutation')];
}

/**
 * A selection of every leaf field reachable from `type`, `depth` levels down (entities from other
 * subgraphs included, so the gateway's query plans run too). Fields with required arguments are
 * left out.
 */
export function selectionOf(type: GraphQLOutputType, depth = 3): string {
  const named = getNamedType(type);
  if (isLeafType(named)) return '';
  if (!isObjectType(named) || depth === 0) return '{ __typename }';
  const parts = Object.values(named.getFields())
    .filter((field) => field.args.every((arg) => !isNonNullType(arg.type)))
    .map((field) => {
      const inner = getNamedType(field.type);
      if (isLeafType(inner)) return field.name;
      return `${field.name} ${selectionOf(field.type, depth - 1)}`;
    });
  return `{ ${parts.join(' ')} }`;
}

/** The document of one operation with a variable per argument: `mutation ($input: X!) { op(input: $input) {...} }`. */
export function documentOf(operation: Operation): string {
  const { field } = operation;
  const variables = field.args.map((arg) => `$${arg.name}: ${arg.type.toString()}`).join(', ');
  const args = field.args.map((arg) => `${arg.name}: $${arg.name}`).join(', ');
  return `${operation.kind}${variables ? ` (${variables})` : ''} { ${field.name}${
    args ? `(${args})` : ''
  } ${selectionOf(field.type)} }`;
}

export { isInputObjectType, isListType, isNonNullType };
