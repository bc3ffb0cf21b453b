import { tokenFor } from '@challenge/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_CHALLENGES, seedDemoChallenges } from '../../scripts/lib/demo-challenges.mjs';
import { BY_STATUS, person, send, walletsBecome, type Person } from '../support/challenges.ts';
import { startPlatform, type Platform } from '../support/platform.ts';

/**
 * `npm start`'s demo challenges, run against the real platform (as `npm start` would after its
 * demo money): each state it promises, and the money each leaves held, released or untouched.
 */
describe("npm start's demo challenges", () => {
  let platform: Platform;
  let alice: Person;
  let bob: Person;
  let accounts: { username: string; token: string }[];

  beforeAll(async () => {
    platform = await startPlatform();
    [alice, bob] = await Promise.all([
      person(platform, { username: 'alice', cents: 12_500 }),
      person(platform, { username: 'bob', cents: 5_000 }),
    ]);
    accounts = await Promise.all(
      [alice, bob].map(async (user) => ({ username: user.username, token: await tokenFor(user) })),
    );
  }, 120_000);
  afterAll(async () => {
    await platform?.stop();
  });

  const slugsIn = async (status: string, as: Person) => {
    const response = await send(platform, BY_STATUS, { input: { status, itemsPerPage: 100 } }, as);
    return response.data?.getChallengesByStatus.challenges as { slug: string }[];
  };

  it('makes one challenge per state through the API, with the money right, and only once', async () => {
    await seedDemoChallenges({ gatewayUrl: new URL(platform.gateway.url).origin, accounts });
    for (const status of ['open', 'accepted', 'refused', 'cancelled']) {
      const expected = DEMO_CHALLENGES.filter((demo) => demo.leaveIn === status).length;
      expect({ status, count: (await slugsIn(status, alice)).length }).toEqual({
        status,
        count: expected,
      });
    }
    // Held: alice's open (EUR 10) and accepted (EUR 15) rewards; bob's refused and alice's
    // cancelled rewards went back.
    await walletsBecome(platform, [
      [alice, { availableAmount: 12_500 - 2_500, freezeAmount: 2_500 }],
      [bob, { availableAmount: 5_000, freezeAmount: 0 }],
    ]);
    // A second `npm start` makes nothing new.
    await seedDemoChallenges({ gatewayUrl: new URL(platform.gateway.url).origin, accounts });
    expect((await slugsIn('open', alice)).length).toBe(1);
    await walletsBecome(platform, [
      [alice, { availableAmount: 10_000, freezeAmount: 2_500 }],
      [bob, { availableAmount: 5_000, freezeAmount: 0 }],
    ]);
  });
});
