import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { GraphQLDataSourceProcessOptions } from '@apollo/gateway';
import { TEST_GATEWAY_SECRET } from '@challenge/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GatewayContext } from '../src/context.ts';
import { ForwardingDataSource } from '../src/data-source.ts';

/**
 * An entity fetch sends each distinct representation once (docs/adr/0108): a subgraph over HTTP
 * that records what it was asked and answers each representation with its id and a nested object,
 * or an error for the ids it is told to fail.
 */

type Representation = { __typename: 'User'; id: string };
const asked: Representation[][] = [];
const failing = new Set<string>();
let server: Server;
let source: ForwardingDataSource;

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const { variables } = JSON.parse(Buffer.concat(chunks).toString()) as {
        variables: { representations: Representation[] };
      };
      const representations = variables.representations;
      asked.push(representations);
      const errors = representations.flatMap((representation, index) =>
        failing.has(representation.id)
          ? [{ message: `no ${representation.id}`, path: ['_entities', index, 'username'] }]
          : [],
      );
      const body = {
        data: {
          _entities: representations.map(({ id }) =>
            failing.has(id) ? null : { username: `user ${id}`, avatar: { url: `/${id}.webp` } },
          ),
        },
        ...(errors.length ? { errors } : {}),
      };
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  source = new ForwardingDataSource({
    name: 'identity',
    url: `http://127.0.0.1:${port}/graphql`,
    gatewaySecret: TEST_GATEWAY_SECRET,
  });
});

afterAll(async () => {
  source.close();
  await new Promise((resolve) => server.close(resolve));
});

const user = (id: string): Representation => ({ __typename: 'User', id });

async function fetchEntities(representations: Representation[]) {
  const options = {
    request: {
      query:
        'query($representations:[_Any!]!){_entities(representations:$representations){...on User{username avatar{url}}}}',
      variables: { representations },
    },
    context: { requestId: 'r' },
  } as unknown as GraphQLDataSourceProcessOptions<GatewayContext>;
  return source.process(options);
}

describe('an entity fetch', () => {
  it('asks for each distinct entity once and answers every place, each with its own objects', async () => {
    asked.length = 0;
    const answer = await fetchEntities([user('a'), user('b'), user('a'), user('a')]);
    expect(asked).toEqual([[user('a'), user('b')]]);
    const entities = answer.data?._entities as { username: string; avatar: { url: string } }[];
    expect(entities.map((entity) => entity.username)).toEqual([
      'user a',
      'user b',
      'user a',
      'user a',
    ]);
    // The gateway merges later fetches into each place: no two places share an object.
    expect(entities[2]).not.toBe(entities[0]);
    expect(entities[2]!.avatar).not.toBe(entities[0]!.avatar);
  });

  it('puts an error at every place of the entity it belongs to, and only there', async () => {
    asked.length = 0;
    failing.add('x');
    const answer = await fetchEntities([user('x'), user('c'), user('x')]);
    expect(asked).toEqual([[user('x'), user('c')]]);
    expect(answer.data?._entities).toEqual([
      null,
      { username: 'user c', avatar: { url: '/c.webp' } },
      null,
    ]);
    expect(answer.errors).toEqual([
      { message: 'no x', path: ['_entities', 0, 'username'] },
      { message: 'no x', path: ['_entities', 2, 'username'] },
    ]);
  });

  it('sends distinct representations as they are', async () => {
    asked.length = 0;
    const answer = await fetchEntities([user('d'), user('e')]);
    expect(asked).toEqual([[user('d'), user('e')]]);
    expect((answer.data?._entities as unknown[]).length).toBe(2);
  });
});
