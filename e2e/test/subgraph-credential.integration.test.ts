import { randomUUID } from 'node:crypto';
import {
  GATEWAY_SECRET_HEADER,
  TEST_GATEWAY_SECRET,
  graphql,
  rawRequest,
  tokenFor,
  type Caller,
} from '@challenge/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPlatform, type Platform } from '../support/platform.ts';
import { MULTIPART_TYPE, multipartFrame, videoOperations } from '../support/uploads.ts';

/**
 * Subgraphs accept only the gateway (issue 18, docs/adr/0069): each of the six refuses a GraphQL
 * request that does not carry the gateway's credential, whoever the user token says is asking,
 * so nobody but the gateway is served `_entities` with a representation of their choosing, or
 * `_service`. Media's upload, tus and image endpoints (which the gateway forwards) likewise.
 */

const SERVICES = [
  'identity',
  'challenge',
  'wallet',
  'media',
  'moderation',
  'notification',
] as const;
/** The secret before the current one: rotated out, configured nowhere any more. */
const RETIRED_SECRET = 'gateway-secret-of-last-quarter-0123456789ab';
const ACCESS_DENIED = {
  message: 'Access denied.',
  extensions: { code: 'FORBIDDEN', identifier: 'access_denied' },
};

/** An `_entities` query with a representation of an entity the subgraph resolves. */
const ENTITIES: Partial<Record<(typeof SERVICES)[number], { query: string; typename: string }>> = {
  identity: { query: '... on User { id username }', typename: 'User' },
  challenge: { query: '... on Challenge { id slug }', typename: 'Challenge' },
  wallet: { query: '... on User { id paymentProfile { paymentName } }', typename: 'User' },
  media: { query: '... on Challenge { id challengeVideos { id } }', typename: 'Challenge' },
};

describe('subgraphs serve only the gateway', () => {
  let platform: Platform;
  let admin: Caller;

  beforeAll(async () => {
    platform = await startPlatform();
    admin = { token: await tokenFor({ id: randomUUID(), roles: ['user', 'admin'] }) };
  }, 120_000);
  afterAll(async () => {
    await platform?.stop();
  });

  const urlOf = (service: (typeof SERVICES)[number]) => platform[service].url;

  it.each(SERVICES)(
    '%s refuses _service and _entities without the credential, or with a wrong or rotated-out one, whatever the user token',
    async (service) => {
      const entity = ENTITIES[service];
      const queries = [
        '{ _service { sdl } }',
        ...(entity
          ? [`query ($r: [_Any!]!) { _entities(representations: $r) { ${entity.query} } }`]
          : []),
      ];
      const variables = { r: [{ __typename: entity?.typename, id: randomUUID() }] };
      for (const query of queries) {
        for (const gatewaySecret of [
          null,
          '',
          'wrong',
          RETIRED_SECRET,
          `${TEST_GATEWAY_SECRET}x`,
        ]) {
          for (const as of [admin, undefined]) {
            const answer = await graphql(urlOf(service), query, variables, as, { gatewaySecret });
            expect({ service, gatewaySecret, status: answer.httpStatus }).toEqual({
              service,
              gatewaySecret,
              status: 403,
            });
            expect(answer.errors).toEqual([ACCESS_DENIED]);
            expect(answer.data).toBeUndefined();
          }
        }
        const served = await graphql(urlOf(service), query, variables, admin);
        expect(served.httpStatus).toBe(200);
        expect(served.errors).toBeUndefined();
      }
    },
  );

  it("refuses media's multipart, tus and image endpoints without the credential", async () => {
    const origin = new URL(platform.media.url).origin;
    const bearer = `Bearer ${await tokenFor({ id: randomUUID() })}`;
    const { head, tail } = multipartFrame(videoOperations(randomUUID()), {
      filename: 'proof.mp4',
      contentType: 'video/mp4',
    });
    const requests: {
      method: string;
      path: string;
      headers?: Record<string, string>;
      body?: Buffer;
    }[] = [
      {
        method: 'POST',
        path: '/uploads/graphql',
        headers: { 'content-type': MULTIPART_TYPE, authorization: bearer },
        body: Buffer.concat([head, Buffer.alloc(64), tail]),
      },
      {
        method: 'POST',
        path: '/uploads/tus',
        headers: { 'tus-resumable': '1.0.0', 'upload-length': '10', authorization: bearer },
      },
      { method: 'OPTIONS', path: '/uploads/tus' },
      {
        method: 'HEAD',
        path: `/uploads/tus/${randomUUID()}`,
        headers: { 'tus-resumable': '1.0.0', authorization: bearer },
      },
      { method: 'GET', path: `/_ipx/w_64/avatars/${randomUUID()}/${randomUUID()}.png` },
    ];
    for (const request of requests) {
      for (const secret of [undefined, 'wrong', RETIRED_SECRET]) {
        const headers = {
          ...request.headers,
          ...(secret === undefined ? {} : { [GATEWAY_SECRET_HEADER]: secret }),
        };
        const answer = await rawRequest(origin, { ...request, headers });
        expect(`${request.method} ${request.path} with ${secret}: ${answer.status}`).toBe(
          `${request.method} ${request.path} with ${secret}: 403`,
        );
      }
      const served = await rawRequest(origin, {
        ...request,
        headers: { ...request.headers, [GATEWAY_SECRET_HEADER]: TEST_GATEWAY_SECRET },
      });
      expect(served.status).not.toBe(403);
    }
  });

  it('leaves nothing of _service or _entities reachable through the gateway', async () => {
    const answer = await graphql(platform.gateway.url, '{ _service { sdl } }', {}, admin, {
      gatewaySecret: null,
    });
    expect(answer.httpStatus).toBe(400);
    expect(answer.errors?.[0]?.extensions?.identifier).toBe('invalid_input');
  });
});
