import { addTypenameToDocument } from '@apollo/client/utilities';
import {
  DEFAULT_GRAPHQL_LIMITS,
  limitRules,
  type GraphqlLimits,
} from '@challenge/gateway/graphql-limits';
import { SUBGRAPHS, apiSchemaSdl, composeSupergraph } from '@challenge/gateway/supergraph';
import {
  Kind,
  Lexer,
  NoUnusedFragmentsRule,
  Source,
  TokenKind,
  buildSchema,
  print,
  specifiedRules,
  validate,
  visit,
  type DocumentNode,
  type GraphQLSchema,
} from 'graphql';
import { describe, expect, it } from 'vitest';

/**
 * Every GraphQL document of the web, validated against the API the gateway serves (the
 * supergraph composed from the services' checked-in SDL, as the gateway's build does), and
 * measured against the gateway's query limits. The documents are typed by hand, so without this
 * a renamed or removed field would only show up as a broken page.
 */

// Every module of the app (not tests): its text, to find `gql` templates, and a loader.
const sources = import.meta.glob<string>(
  ['./**/*.{ts,tsx}', '!./**/*.test.{ts,tsx}', '!./test/**'],
  { query: '?raw', import: 'default', eager: true },
);
const loaders = import.meta.glob<Record<string, unknown>>([
  './**/*.{ts,tsx}',
  '!./**/*.test.{ts,tsx}',
  '!./test/**',
]);

// The services' checked-in SDL, which the gateway's build composes (Vite's module graph cannot
// read them through the gateway's own file URLs).
const subgraphSdls = import.meta.glob<string>('../../services/*/src/schema.graphql', {
  query: '?raw',
  import: 'default',
  eager: true,
});

function composedApiSchema(): GraphQLSchema {
  const subgraphs = SUBGRAPHS.map((name) => {
    const sdl = subgraphSdls[`../../services/${name}/src/schema.graphql`];
    if (sdl === undefined) throw new Error(`services/${name}/src/schema.graphql not found`);
    return { name, sdl };
  });
  return buildSchema(apiSchemaSdl(composeSupergraph(subgraphs)));
}

interface WebDocument {
  /** `file#export` */
  name: string;
  document: DocumentNode;
}

const isDocument = (value: unknown): value is DocumentNode =>
  typeof value === 'object' && value !== null && (value as DocumentNode).kind === Kind.DOCUMENT;

const hasOperation = (document: DocumentNode) =>
  document.definitions.some((definition) => definition.kind === Kind.OPERATION_DEFINITION);

/** The documents exported by every module of web/src that writes a `gql` template. */
async function collectDocuments(): Promise<{ documents: WebDocument[]; unexported: string[] }> {
  const documents: WebDocument[] = [];
  const unexported: string[] = [];
  for (const [file, source] of Object.entries(sources)) {
    const templates = source.match(/\bgql\s*`/g)?.length ?? 0;
    if (!templates) continue;
    const module = await loaders[file]!();
    const found = Object.entries(module).filter(([, value]) => isDocument(value));
    // A document that is not exported cannot be checked here: export it (one per file).
    if (found.length < templates) unexported.push(file);
    for (const [name, document] of found) {
      documents.push({ name: `${file}#${name}`, document: document as DocumentNode });
    }
  }
  return { documents, unexported };
}

/**
 * Problems of one document against the schema: graphql-js's rules (a fragment-only document may
 * leave its fragments unused: they are spread by the operations that interpolate it).
 */
function schemaErrors(schema: GraphQLSchema, document: DocumentNode): string[] {
  const rules = hasOperation(document)
    ? specifiedRules
    : specifiedRules.filter((rule) => rule !== NoUnusedFragmentsRule);
  return validate(schema, document, rules).map((error) => error.message);
}

function tokenCount(text: string): number {
  const lexer = new Lexer(new Source(text));
  let count = 0;
  while (lexer.advance().kind !== TokenKind.EOF) count += 1;
  return count;
}

/** What the gateway's limits measure of the document Apollo Client sends (with `__typename`). */
function measure(schema: GraphQLSchema, document: DocumentNode): GraphqlLimits {
  const sent = addTypenameToDocument(document);
  const found: GraphqlLimits = { depth: 0, aliases: 0, directives: 0, tokens: 0, cost: 0 };
  const rules = limitRules(DEFAULT_GRAPHQL_LIMITS, (limit, value) => {
    found[limit] = Math.max(found[limit], value);
  });
  const refusals = validate(schema, sent, rules).map((error) => error.message);
  expect(refusals, 'the gateway would refuse it').toEqual([]);
  found.tokens = tokenCount(print(sent));
  return found;
}

describe("the web's GraphQL documents", () => {
  const schema = composedApiSchema();

  it('all validate against the composed API schema', async () => {
    const { documents, unexported } = await collectDocuments();
    expect(unexported, 'modules with a gql document that is not exported').toEqual([]);
    const invalid = documents.flatMap(({ name, document }) =>
      schemaErrors(schema, document).map((message) => `${name}: ${message}`),
    );
    console.log(`checked ${documents.length} web GraphQL documents against the API schema`);
    expect(documents.length).toBeGreaterThan(30);
    expect(invalid).toEqual([]);
  });

  it('stay within half of every gateway limit, so the limits leave room', async () => {
    const { documents } = await collectDocuments();
    const largest: GraphqlLimits = { depth: 0, aliases: 0, directives: 0, tokens: 0, cost: 0 };
    for (const { document } of documents.filter((entry) => hasOperation(entry.document))) {
      const found = measure(schema, document);
      for (const limit of Object.keys(largest) as (keyof GraphqlLimits)[]) {
        largest[limit] = Math.max(largest[limit], found[limit]);
      }
    }
    console.log(
      `largest web operation: ${JSON.stringify(largest)}; limits: ${JSON.stringify(DEFAULT_GRAPHQL_LIMITS)}`,
    );
    for (const limit of Object.keys(largest) as (keyof GraphqlLimits)[]) {
      expect(largest[limit] * 2, limit).toBeLessThanOrEqual(DEFAULT_GRAPHQL_LIMITS[limit]);
    }
  });

  it('reports a field the API does not have (the check can fail)', async () => {
    const { documents } = await collectDocuments();
    const wallet = documents.find(({ name }) => name.endsWith('/Wallet.ts#WalletDocument'));
    expect(wallet).toBeDefined();
    const renamed = visit(wallet!.document, {
      Field: (field) =>
        field.name.value === 'availableAmount'
          ? { ...field, name: { ...field.name, value: 'availableAmountInCents' } }
          : undefined,
    });
    expect(schemaErrors(schema, wallet!.document)).toEqual([]);
    expect(schemaErrors(schema, renamed)).toEqual([
      'Cannot query field "availableAmountInCents" on type "Wallet". Did you mean "availableAmount"?',
    ]);
  });
});
