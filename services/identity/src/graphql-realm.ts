import { createRequire } from 'node:module';
import type * as GraphQL from 'graphql';

/**
 * The `graphql` module as Apollo's packages load it (CommonJS). Our sources import its ES module
 * build, a second copy whose classes fail graphql's instanceof checks against schemas built by
 * @apollo/subgraph ("Cannot use GraphQLSchema from another module or realm"). What executes on
 * or throws into such a schema comes from here.
 */
export const graphqlCjs = createRequire(import.meta.url)('graphql') as typeof GraphQL;
