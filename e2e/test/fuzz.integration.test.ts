import { LIMITED_OPERATIONS } from '@challenge/gateway/rate-limit-rules';
import { seedUser } from '@challenge/identity/seed';
import type { Role } from '@challenge/kit';
import { INTERNAL_ANSWER, rawRequest, tokenFor } from '@challenge/testing';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { env } from '../src/env.ts';
import { documentOf, operations } from '../support/api-schema.ts';
import {
  edgeVariablesOf,
  faultsOf,
  forwardingMethod,
  forwardingPath,
  variablesOf,
} from '../support/fuzz.ts';
import { inPool } from '../support/matrix.ts';
import type { TestGatewayOptions } from '../support/gateway.ts';
import { startPlatform, type Platform } from '../support/platform.ts';

/**
 * The fuzz test (issue 10): every mutation of the composed supergraph, and every query, sent
 * through the real gateway with inputs generated from its argument types (random, empty, huge,
 * wrong-typed, unicode and boundary values; missing, extra and null fields), as a visitor, as a
 * logged-in user and as an admin. Every answer must be a success or a clean catalogue error: no
 * 5xx, no stack trace, no internal text, every error and status carrying a catalogue identifier.
 *
 * FUZZ_RUNS inputs per operation and caller (a few in `npm test`; `npm run fuzz` runs thousands),
 * FUZZ_SEED repeats a run.
 *
 * And the gateway's paths that forward to another process (tus, /_ipx, the payment webhook, the
 * dev inbox; issue 18): generated raw paths below them, sent as written (node:http; fetch would
 * resolve dot segments first), never reach an internal endpoint and never fail with a 5xx.
 */

const RUNS = env.fuzzRuns;
const SEED = env.fuzzSeed ?? Date.now() % 2 ** 31;

/** Sign-in limits out of the way: the fuzz is about what the resolvers do with the inputs. */
const UNLIMITED = { account: null, ip: null, windowSeconds: 1 };

type RateLimits = NonNullable<TestGatewayOptions['rateLimits']>;
type Caller = 'visitor' | 'user' | 'admin';
const CALLERS: Record<Caller, Role[] | null> = {
  visitor: null,
  user: ['user'],
  admin: ['user', 'moderator', 'admin'],
};

describe('fuzz: every operation of the supergraph, through the gateway', () => {
  const all = operations();
  let platform: Platform;

  beforeAll(async () => {
    // Every sign-in limit the gateway knows, so a new one is lifted here too.
    const rateLimits = Object.fromEntries(
      LIMITED_OPERATIONS.map((name) => [name, UNLIMITED]),
    ) as RateLimits;
    platform = await startPlatform({ rateLimits });
  });
  afterAll(async () => {
    await platform?.stop();
  });

  it(
    'answers every generated input with a success or a clean catalogue error',
    async () => {
      console.log(`fuzz: seed ${SEED} (FUZZ_SEED=${SEED} repeats this run), ${RUNS} runs`);
      /** One example per operation, caller and kind of fault; how often each kind occurred. */
      const faults = new Map<string, { example: string; count: number }>();
      let total = 0;
      for (const [index, operation] of all.entries()) {
        const document = documentOf(operation);
        // One user per operation, so that logout or deleteUser spoil nothing else.
        const users = Object.fromEntries(
          await Promise.all(
            (Object.entries(CALLERS) as [Caller, Role[] | null][]).map(async ([caller, roles]) => [
              caller,
              roles && { id: (await seedUser(platform.identity.app.db, { roles })).id, roles },
            ]),
          ),
        ) as Record<Caller, { id: string; roles: Role[] } | null>;
        const inputs = [
          ...edgeVariablesOf(operation.field.args),
          ...fc.sample(variablesOf(operation.field.args), { numRuns: RUNS, seed: SEED + index }),
        ];
        const tasks = inputs.flatMap((variables) =>
          (Object.keys(CALLERS) as Caller[]).map((caller) => async () => {
            const user = users[caller];
            const headers: Record<string, string> = { 'content-type': 'application/json' };
            if (user) headers.authorization = `Bearer ${await tokenFor(user)}`;
            const response = await fetch(platform.gateway.url, {
              method: 'POST',
              headers,
              body: JSON.stringify({ query: document, variables }),
            });
            const text = await response.text();
            const found = faultsOf(response.status, text);
            if (found.length) {
              const kind = `${operation.name} as ${caller}: ${found.join('; ').slice(0, 160)}`;
              const seen = faults.get(kind);
              if (seen) seen.count += 1;
              else {
                faults.set(kind, {
                  count: 1,
                  example: `variables ${JSON.stringify(variables).slice(0, 300)}\n  answer ${text.slice(0, 300)}`,
                });
              }
            }
          }),
        );
        const started = Date.now();
        await inPool(4, tasks);
        total += tasks.length;
        console.log(
          `fuzz: ${operation.kind} ${operation.name} ${tasks.length} inputs (${Date.now() - started} ms)`,
        );
      }
      console.log(
        `fuzz: ${all.length} operations, ${total} inputs in total, ${faults.size} kinds of fault`,
      );
      expect(
        [...faults].map(([kind, { count, example }]) => `${kind} (${count}x)\n  ${example}`),
      ).toEqual([]);
    },
    // Generous for `npm run fuzz`; the short run in `npm test` takes well under a minute.
    Math.max(120_000, RUNS * 60_000),
  );

  it(
    'never lets a generated path below a forwarding prefix reach an internal endpoint',
    async () => {
      const origin = new URL(platform.gateway.url).origin;
      const token = await tokenFor({ id: (await seedUser(platform.identity.app.db, {})).id });
      const samples = fc.sample(fc.tuple(forwardingPath, forwardingMethod, fc.boolean()), {
        numRuns: RUNS * 250,
        seed: SEED,
      });
      const faults = new Set<string>();
      await inPool(
        4,
        samples.map(([path, method, signedIn]) => async () => {
          const answer = await rawRequest(origin, {
            method,
            path,
            headers: {
              'content-type': 'application/json',
              'tus-resumable': '1.0.0',
              ...(signedIn ? { authorization: `Bearer ${token}` } : {}),
            },
            body:
              method === 'POST' || method === 'PATCH'
                ? JSON.stringify({ query: '{ _service { sdl } }' })
                : undefined,
          });
          if (answer.status >= 500 || INTERNAL_ANSWER.test(answer.body)) {
            faults.add(`${method} ${path}: ${answer.status} ${answer.body.slice(0, 120)}`);
          }
        }),
      );
      console.log(`fuzz: ${samples.length} raw paths below the forwarding prefixes`);
      expect([...faults]).toEqual([]);
    },
    Math.max(120_000, RUNS * 30_000),
  );
});
