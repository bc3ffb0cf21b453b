import type { ApolloServer } from '@apollo/server';
import type { TokenVerifier } from '@challenge/kit';
import type { Request, Response } from 'express';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import type { GatewayContext } from '../src/context.ts';
import { pageSubjectLookUp } from '../src/page-subjects.ts';

/**
 * A challenge page's lookup runs the page's own queries, as the visitor, when the web build
 * names them, and only their whole, successful answers go into the page (docs/adr/0100).
 */
const logger = pino({ level: 'silent' });
const visitor = { ip: '203.0.113.7', get: () => undefined } as unknown as Request;
const response = { locals: { requestId: 'r-1' } } as unknown as Response;
const queries = new Map([
  ['ChallengeBySlug', 'query ChallengeBySlug($slug: String!) { page }'],
  ['ChallengeVideos', 'query ChallengeVideos($slug: String!) { videos }'],
]);
const status = (success: boolean, identifier: string) => ({ success, identifier, message: '' });
const challenge = { id: 'c-1', challengeName: 'Juggle', challengeDescription: 'A minute.' };
const videos = { id: 'c-1', challengeVideos: [{ thumbnailUrl: 'https://media.example/p.webp' }] };

/** A supergraph that answers each query by its text, and remembers what it was asked and as whom. */
function supergraph(answers: Record<string, { data?: unknown; errors?: unknown[] }>) {
  const asked: { query: string; variables: unknown; token: unknown }[] = [];
  const apollo = {
    executeOperation: async (
      request: { query: string; variables: unknown },
      { contextValue }: { contextValue: GatewayContext },
    ) => {
      asked.push({ query: request.query, variables: request.variables, token: contextValue.token });
      const name = /query (\w+)/.exec(request.query)?.[1] ?? '';
      return { body: { kind: 'single', singleResult: answers[name] ?? { data: null } } };
    },
  } as unknown as ApolloServer<GatewayContext>;
  const lookUp = pageSubjectLookUp({
    apollo,
    verifier: {} as TokenVerifier,
    logger,
    production: false,
  });
  return { asked, lookUp };
}

const found = {
  ChallengeBySlug: { data: { getChallengeBySlug: { status: status(true, 'ok'), challenge } } },
  ChallengeVideos: {
    data: { getChallengeBySlug: { status: status(true, 'ok'), challenge: videos } },
  },
};

describe("a challenge page's lookup with the page's own queries", () => {
  it('runs both as the visitor and puts their answers, the poster and the preview into the page', async () => {
    const { asked, lookUp } = supergraph(found);
    const result = await lookUp('/challenge/juggle-ab12/detail', visitor, response, queries);
    expect(asked).toEqual([
      { query: queries.get('ChallengeBySlug'), variables: { slug: 'juggle-ab12' }, token: null },
      { query: queries.get('ChallengeVideos'), variables: { slug: 'juggle-ab12' }, token: null },
    ]);
    expect(result).toEqual({
      missing: false,
      image: 'https://media.example/p.webp',
      data: [
        {
          operation: 'ChallengeBySlug',
          variables: { slug: 'juggle-ab12' },
          data: found.ChallengeBySlug.data,
        },
        {
          operation: 'ChallengeVideos',
          variables: { slug: 'juggle-ab12' },
          data: found.ChallengeVideos.data,
        },
      ],
      preview: challenge,
    });
  });

  it('puts nothing of a challenge the visitor may not see (private, removed) into the page', async () => {
    const { lookUp } = supergraph({
      ChallengeBySlug: {
        data: {
          getChallengeBySlug: { status: status(false, 'challenge_not_found'), challenge: null },
        },
      },
      ChallengeVideos: {
        data: {
          getChallengeBySlug: { status: status(false, 'challenge_not_found'), challenge: null },
        },
      },
    });
    expect(await lookUp('/challenge/hidden-ab12/detail', visitor, response, queries)).toEqual({
      missing: true,
      image: null,
      data: [],
      preview: null,
    });
  });

  it('leaves out an answer with errors: the page asks that query itself', async () => {
    const { lookUp } = supergraph({
      ...found,
      ChallengeVideos: { ...found.ChallengeVideos, errors: [{ message: 'media is away' }] },
    });
    const result = await lookUp('/challenge/juggle-ab12/detail', visitor, response, queries);
    expect(result.data?.map((entry) => entry.operation)).toEqual(['ChallengeBySlug']);
    expect(result.preview).toEqual(challenge);
  });

  it('runs its own lookup, and puts nothing into the page, when the build names no queries', async () => {
    const { asked, lookUp } = supergraph({
      PageChallenge: {
        data: {
          getChallengeBySlug: {
            status: { identifier: 'ok' },
            challenge: { thumbnailUrl: 'https://media.example/p.webp' },
          },
        },
      },
    });
    const result = await lookUp('/challenge/juggle-ab12/detail', visitor, response, new Map());
    expect(asked.map(({ query }) => /query (\w+)/.exec(query)?.[1])).toEqual(['PageChallenge']);
    expect(result).toEqual({
      missing: false,
      image: 'https://media.example/p.webp',
      data: [],
      preview: null,
    });
  });
});
