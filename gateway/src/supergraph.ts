import { readFileSync } from 'node:fs';
import { composeServices } from '@apollo/composition';
import { Supergraph, printSchema } from '@apollo/federation-internals';
import { parse } from 'graphql';

/** Subgraph name -> its checked-in SDL file. The names are the supergraph's join__Graph names. */
export const SUBGRAPHS = [
  'identity',
  'challenge',
  'wallet',
  'media',
  'moderation',
  'notification',
] as const;
export type SubgraphName = (typeof SUBGRAPHS)[number];

export interface SubgraphSdl {
  name: string;
  sdl: string;
}

export function readSubgraphSdls(): SubgraphSdl[] {
  return SUBGRAPHS.map((name) => ({
    name,
    sdl: readFileSync(
      new URL(`../../services/${name}/src/schema.graphql`, import.meta.url),
      'utf8',
    ),
  }));
}

/**
 * Composes the supergraph from the subgraphs' SDL (by default the checked-in files). The URLs
 * written into it are placeholders: the gateway routes to the URLs of its configuration.
 */
export function composeSupergraph(subgraphs: SubgraphSdl[] = readSubgraphSdls()): string {
  const result = composeServices(
    subgraphs.map(({ name, sdl }) => ({
      name,
      url: `http://${name}.invalid/graphql`,
      typeDefs: parse(sdl),
    })),
  );
  if (result.errors) {
    throw new Error(
      `Supergraph composition failed:\n${result.errors.map((error) => `- ${error.message}`).join('\n')}`,
    );
  }
  return result.supergraphSdl;
}

/**
 * The schema clients see (the supergraph without its join and link machinery) as SDL: what
 * Apollo validates every request against. SDL rather than a schema object, so that a caller
 * builds it with its own copy of graphql-js (Vite's ESM copy in the web's tests).
 */
export function apiSchemaSdl(supergraphSdl: string): string {
  return printSchema(Supergraph.build(supergraphSdl).apiSchema());
}
