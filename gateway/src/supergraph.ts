import { readFileSync } from 'node:fs';
import { composeServices } from '@apollo/composition';
import { parse } from 'graphql';

/** Subgraph name -> its checked-in SDL file. The names are the supergraph's join__Graph names. */
export const SUBGRAPHS = ['identity', 'challenge', 'wallet', 'media', 'moderation', 'notification'] as const;
export type SubgraphName = (typeof SUBGRAPHS)[number];

const sdlFile = (name: SubgraphName) => new URL(`../../services/${name}/src/schema.graphql`, import.meta.url);

/**
 * Composes the supergraph from the subgraphs' SDL files. The URLs written into it are
 * placeholders: the gateway routes to the URLs of its configuration.
 */
export function composeSupergraph(): string {
  const result = composeServices(
    SUBGRAPHS.map((name) => ({
      name,
      url: `http://${name}.invalid/graphql`,
      typeDefs: parse(readFileSync(sdlFile(name), 'utf8')),
    })),
  );
  if (result.errors) {
    throw new Error(`Supergraph composition failed:\n${result.errors.map((error) => `- ${error.message}`).join('\n')}`);
  }
  return result.supergraphSdl;
}
