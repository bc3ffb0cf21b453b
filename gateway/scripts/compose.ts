// Build step: compose the supergraph from the subgraphs' SDL files; a composition error fails the build.
import { writeFileSync } from 'node:fs';
import { composeSupergraph } from '../src/supergraph.ts';

try {
  writeFileSync(new URL('../supergraph.graphql', import.meta.url), composeSupergraph());
  console.log('supergraph composed: gateway/supergraph.graphql');
} catch (error) {
  console.error((error as Error).message);
  process.exit(1);
}
