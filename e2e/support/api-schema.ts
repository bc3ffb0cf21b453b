import { composeServices } from '@apollo/composition';
import { readSubgraphSdls } from '@challenge/gateway/supergraph';
import {
  getNamedType,
  isInputObjectType,
  isLeafType,
  isListType,
  isNonNullType,
  isObjectType,
  parse,
  type GraphQLField,
  type GraphQLOutputType,
  type GraphQLSchema,
} from 'graphql';

/**
 * The API schema clients see: composed from the subgraphs' checked-in SDL as the gateway's build
 * does, federation's own types removed. A new query or mutation appears here by itself.
 */
export function apiSchema(): GraphQLSchema {
  const result = composeServices(
    readSubgraphSdls().map(({ name, sdl }) => ({
      name,
      url: `http://${name}.invalid/graphql`,
      typeDefs: parse(sdl),
    })),
  );
  if (result.errors) throw new Error(result.errors.map((error) => error.message).join('\n'));
  return result.schema.toAPISchema().toGraphQLJSSchema();
}

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
