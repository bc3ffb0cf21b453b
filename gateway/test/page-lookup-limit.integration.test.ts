import { randomUUID } from 'node:crypto';
import type { ApolloServer } from '@apollo/server';
import { createRedis, type TokenVerifier } from '@challenge/kit';
import { stack } from '@challenge/testing';
import type { Request, Response } from 'express';
import { pino } from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import type { GatewayContext } from '../src/context.ts';
import { pageSubjectLookUp } from '../src/page-subjects.ts';
import { pageLookupBudget } from '../src/rate-limit.ts';

/**
 * A challenge or profile page runs a lookup through the subgraphs on every load (its 404 status
 * and the poster, docs/adr/0094, 0099): a client gets a budget of them, counted in Redis, and a
 * page over it goes out without one rather than costing the subgraphs another query.
 */
const logger = pino({ level: 'silent' });
const redis = createRedis(stack.redisUrl, logger);
afterAll(() => redis.quit());

const requestFrom = (ip: string) =>
  ({
    ip,
    protocol: 'https',
    hostname: 'challenge.test',
    get: () => undefined,
  }) as unknown as Request;
const response = { locals: { requestId: 'r-1' } } as unknown as Response;

describe('the page lookup budget', () => {
  it('lets a client run its budget of lookups a window, then none; another client has its own', async () => {
    const allowed = pageLookupBudget(
      { redis, logger, keyPrefix: `test:${randomUUID()}:` },
      { ip: 2, windowSeconds: 60 },
    );
    const one = requestFrom('203.0.113.7');
    expect([await allowed(one), await allowed(one), await allowed(one)]).toEqual([
      true,
      true,
      false,
    ]);
    expect(await allowed(requestFrom('203.0.113.8'))).toBe(true);
  });

  it('asks the subgraphs nothing for a page over the budget: it goes out as found, without a poster', async () => {
    let asked = 0;
    const apollo = {
      executeOperation: () => {
        asked += 1;
        throw new Error('the subgraphs must not be asked');
      },
    } as unknown as ApolloServer<GatewayContext>;
    const lookUp = pageSubjectLookUp({
      apollo,
      verifier: {} as TokenVerifier,
      logger,
      production: false,
      mayLookUp: async () => false,
    });
    expect(
      await lookUp('/challenge/juggle-ab12/detail', requestFrom('203.0.113.9'), response),
    ).toEqual({ missing: false, image: null, data: [] });
    expect(asked).toBe(0);
  });
});
