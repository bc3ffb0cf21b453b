import { costLimitRule } from '@escape.tech/graphql-armor-cost-limit';
import { maxAliasesRule } from '@escape.tech/graphql-armor-max-aliases';
import { maxDepthRule } from '@escape.tech/graphql-armor-max-depth';
import { maxDirectivesRule } from '@escape.tech/graphql-armor-max-directives';
import {
  GraphQLError,
  type ParseOptions,
  type ValidationContext,
  type ValidationRule,
} from 'graphql';

/**
 * Bounds on what one GraphQL document may ask for (GraphQL Armor's rules and graphql-js's token
 * limit). The defaults leave at least twice the room the web's largest document needs; the web's
 * documents test (web/src/graphql-documents.test.ts) checks that they still do.
 */
export interface GraphqlLimits {
  /** Nesting depth of fields (fragments count their fields' depth). */
  depth: number;
  /** Aliased fields per operation (`__typename` aliases are free). */
  aliases: number;
  /** Directives per operation. */
  directives: number;
  /** Lexical tokens of the whole document; the parser stops at the limit. */
  tokens: number;
  /** GraphQL Armor's cost: objects 2, scalars 1, each level deeper times 1.5. */
  cost: number;
}

export const DEFAULT_GRAPHQL_LIMITS: GraphqlLimits = {
  depth: 12,
  aliases: 10,
  directives: 20,
  tokens: 1_000,
  cost: 2_000,
};

/** What a rule measured for an accepted operation (the web's documents test reads it). */
export type LimitMeasure = (limit: keyof GraphqlLimits, value: number) => void;

/**
 * A refusal as a validation error: Apollo answers 400 with code GRAPHQL_VALIDATION_FAILED (the
 * gateway's formatError adds `identifier: invalid_input`). Armor's messages start with
 * "Syntax Error: " although they are not; that prefix is dropped.
 */
const reportTo = (context: ValidationContext | null, error: GraphQLError) =>
  context?.reportError(new GraphQLError(error.message.replace(/^Syntax Error: /, '')));

/** The validation rules that enforce depth, aliases, directives and cost. */
export function limitRules(limits: GraphqlLimits, measure?: LimitMeasure): ValidationRule[] {
  const accepted = (limit: keyof GraphqlLimits) =>
    measure ? [(_: unknown, details: { n: number }) => measure(limit, details.n)] : [];
  const common = { exposeLimits: true, propagateOnRejection: false, onReject: [reportTo] };
  return [
    maxDepthRule({ ...common, n: limits.depth, onAccept: accepted('depth') }),
    maxAliasesRule({ ...common, n: limits.aliases, onAccept: accepted('aliases') }),
    maxDirectivesRule({ ...common, n: limits.directives, onAccept: accepted('directives') }),
    costLimitRule({ ...common, maxCost: limits.cost, onAccept: accepted('cost') }),
  ] as ValidationRule[];
}

/** The parser's token limit: a longer document fails to parse (400, GRAPHQL_PARSE_FAILED). */
export const limitParseOptions = (limits: GraphqlLimits): ParseOptions => ({
  maxTokens: limits.tokens,
});

/** Schema suggestions ("Did you mean ...?") would let anyone map the schema by trial. */
export const withoutSuggestions = (message: string): string =>
  message.replace(/ ?Did you mean [^?]*\?/g, '');
