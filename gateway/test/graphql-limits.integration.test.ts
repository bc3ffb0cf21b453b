import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_GRAPHQL_LIMITS } from '../src/graphql-limits.ts';
import { post, privateIp, startPlatform, type Answer, type TestPlatform } from './support.ts';

const from = (ip: string) => ({ 'x-forwarded-for': ip });

/** `{ node { child { child ... { id } } } }`: `depth` levels of fields in all. */
function nested(depth: number): string {
  let selection = 'id';
  for (let level = 2; level < depth; level += 1) selection = `child { ${selection} }`;
  return `{ node { ${selection} } }`;
}

/** A refused document: HTTP 400, one clean GraphQL error with a catalogue identifier. */
function expectRefused(answer: Answer, message: RegExp | string) {
  expect(answer.status).toBe(400);
  expect(answer.body.data).toBeUndefined();
  expect(answer.body.errors).toHaveLength(1);
  const [error] = answer.body.errors as { message: string; extensions: Record<string, unknown> }[];
  if (typeof message === 'string') expect(error!.message).toBe(message);
  else expect(error!.message).toMatch(message);
  expect(error!.extensions.identifier).toBe('invalid_input');
  expect(error!.extensions.code).toMatch(/^GRAPHQL_(VALIDATION|PARSE)_FAILED$/);
  expect(error!.extensions.stacktrace).toBeUndefined();
  expect(JSON.stringify(answer.body)).not.toMatch(/Did you mean|\.ts:\d+|node_modules/);
}

describe('GraphQL query limits (defaults)', () => {
  let platform: TestPlatform;
  let base: string;
  const ask = (query: string, variables: Record<string, unknown> = {}) =>
    post(base, query, variables, from(privateIp()));

  beforeAll(async () => {
    platform = await startPlatform();
    base = await platform.gateway();
  });
  afterAll(() => platform.stop());

  it('answers a query at the depth limit and refuses one level deeper', async () => {
    const atLimit = await ask(nested(DEFAULT_GRAPHQL_LIMITS.depth));
    expect(atLimit.status).toBe(200);
    expect(atLimit.body.data).toEqual({ node: { child: null } });
    expectRefused(
      await ask(nested(DEFAULT_GRAPHQL_LIMITS.depth + 1)),
      /^Query depth limit of 12 exceeded, found 13\.$/,
    );
  });

  it('refuses more aliases than the limit', async () => {
    const aliases = (count: number) =>
      `{ ${Array.from({ length: count }, (_, i) => `a${i}: whoAmI { userId }`).join(' ')} }`;
    expect((await ask(aliases(DEFAULT_GRAPHQL_LIMITS.aliases))).status).toBe(200);
    expectRefused(
      await ask(aliases(DEFAULT_GRAPHQL_LIMITS.aliases + 1)),
      'Aliases limit of 10 exceeded, found 11.',
    );
  });

  it('refuses more directives than the limit', async () => {
    const fields = (count: number) => `{ whoAmI { ${'userId @include(if: true) '.repeat(count)}} }`;
    expect((await ask(fields(DEFAULT_GRAPHQL_LIMITS.directives))).status).toBe(200);
    expectRefused(
      await ask(fields(DEFAULT_GRAPHQL_LIMITS.directives + 1)),
      'Directives limit of 20 exceeded, found 21.',
    );
  });

  it('refuses a document of more tokens than the limit before parsing it whole', async () => {
    // `{ node(path: [0 1 2 ...]) { id } }`: 12 tokens around the numbers.
    const list = (count: number) =>
      `{ node(path: [${Array.from({ length: count }, (_, i) => i).join(' ')}]) { id } }`;
    const atLimit = await ask(list(DEFAULT_GRAPHQL_LIMITS.tokens - 12));
    expect(atLimit.status).toBe(200);
    expect(atLimit.body.data).toEqual({ node: { id: 'n' } });
    expectRefused(
      await ask(list(DEFAULT_GRAPHQL_LIMITS.tokens - 11)),
      'Syntax Error: Document contains more that 1000 tokens. Parsing aborted.',
    );
  });

  it('refuses a costly query that each other limit lets through', async () => {
    // A fragment eight levels deep, spread 40 times: depth 10, no aliases, about 110 tokens.
    const fragment = `fragment Deep on Node { ${nested(9).slice(9, -4)} }`;
    const query = `{ node { ${'...Deep '.repeat(40)}} } ${fragment}`;
    expectRefused(await ask(query), /^Query Cost limit of 2000 exceeded, found \d+(\.\d+)?\.$/);
  });

  it('names an unknown field or type without suggesting the right one', async () => {
    expectRefused(
      await ask('{ whoAmi { userId } }'),
      'Cannot query field "whoAmi" on type "Query".',
    );
    expectRefused(
      await ask('{ whoAmI { userid } }'),
      'Cannot query field "userid" on type "WhoAmI".',
    );
    expectRefused(
      await ask('mutation ($input: LoginInpt!) { login(input: $input) { accessToken } }', {
        input: {},
      }),
      'Unknown type "LoginInpt".',
    );
  });

  it('answers a syntax error as invalid input', async () => {
    expectRefused(await ask('{ whoAmI { '), /^Syntax Error: /);
  });
});

describe('GraphQL query limits (configured)', () => {
  let platform: TestPlatform;

  beforeAll(async () => {
    platform = await startPlatform();
  });
  afterAll(() => platform.stop());

  it('applies the configured limits', async () => {
    const base = await platform.gateway({
      graphqlLimits: { ...DEFAULT_GRAPHQL_LIMITS, depth: 3, cost: 10_000 },
    });
    expect((await post(base, nested(3), {}, from(privateIp()))).status).toBe(200);
    expectRefused(
      await post(base, nested(4), {}, from(privateIp())),
      'Query depth limit of 3 exceeded, found 4.',
    );
  });
});
