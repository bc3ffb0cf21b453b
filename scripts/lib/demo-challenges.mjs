/**
 * Demo challenges for `npm start`, through the real API (so each reward is really held and
 * released by wallet): between alice and bob, one challenge in each state a user can reach
 * without the media service. `review` and `completed` are missing on purpose: a challenge reaches
 * review only when media publishes VideoProcessed for its video (and completed only from
 * review), and media does not publish it yet. Runs once: nothing is made when alice already has
 * a challenge in any state.
 */
import { setTimeout as sleep } from 'node:timers/promises';

const STATUS = 'status { success identifier message }';

async function call(gatewayUrl, token, query, variables = {}) {
  const response = await fetch(`${gatewayUrl}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ query, variables }),
  });
  const body = await response.json();
  if (body.errors?.length) throw new Error(body.errors[0].message);
  return body.data;
}

/** What the demo makes: owner, challenged user, the challenge, and the state it is left in. */
export const DEMO_CHALLENGES = [
  {
    owner: 'alice',
    challenged: 'bob',
    leaveIn: 'open',
    input: {
      challengeName: 'Cartwheel on the beach',
      challengeDescription: 'Three cartwheels in a row at Scheveningen, sand and all.',
      challengeReward: 1_000,
      tags: ['sport', 'outdoor'],
    },
  },
  {
    owner: 'alice',
    challenged: 'bob',
    leaveIn: 'accepted',
    input: {
      challengeName: 'Sing the Wilhelmus backwards',
      challengeDescription: 'The first verse, backwards, without notes. Proof phrase included.',
      challengeReward: 1_500,
      tags: ['music'],
    },
  },
  {
    owner: 'bob',
    challenged: 'alice',
    leaveIn: 'refused',
    reason: 'Ice baths are not my thing, sorry!',
    input: {
      challengeName: 'Ice bath for two minutes',
      challengeDescription: 'Two full minutes in a tub of ice water, timer in view.',
      challengeReward: 500,
      tags: ['cold', 'endurance'],
    },
  },
  {
    owner: 'alice',
    challenged: 'bob',
    leaveIn: 'cancelled',
    input: {
      challengeName: 'Juggle five eggs',
      challengeDescription: 'Five raw eggs, ten seconds, in the kitchen.',
      challengeReward: 500,
      tags: ['juggling'],
      visibility: 'private',
    },
  },
];

const DEMO_OWNERS = new Set(DEMO_CHALLENGES.map((demo) => demo.owner));

/** Whether `username` already owns or was challenged in anything (then the demo ran before): running or requested on their dashboard, or
 * a finished challenge of a demo owner. */
async function hasChallenges(gatewayUrl, token) {
  const { getDashboardChallenges: dashboard } = await call(
    gatewayUrl,
    token,
    `{ getDashboardChallenges { ${STATUS} runningChallengesCount challengeRequestsCount } }`,
  );
  if (!dashboard.status.success) throw new Error(dashboard.status.message);
  if (dashboard.runningChallengesCount + dashboard.challengeRequestsCount > 0) return true;
  for (const status of ['refused', 'cancelled', 'completed', 'failed', 'expired']) {
    const { getChallengesByStatus: page } = await call(
      gatewayUrl,
      token,
      `query($input: GetChallengesByStatusInput!) { getChallengesByStatus(input: $input) {
        ${STATUS} challenges { owner { username } } } }`,
      { input: { status, itemsPerPage: 100 } },
    );
    if (page.challenges?.some((challenge) => DEMO_OWNERS.has(challenge.owner.username))) {
      return true;
    }
  }
  return false;
}

/**
 * Creates one challenge. The challenged user's projection and the owner's top-up arrive by
 * events a moment after `npm start` registers them: wait for those, not for anything else.
 */
async function create(gatewayUrl, token, demo, challengedUsername) {
  for (let attempt = 0; attempt < 60; attempt += 1) {
    const { createChallenge: created } = await call(
      gatewayUrl,
      token,
      `mutation($input: CreateChallengeInput!) { createChallenge(input: $input) {
        ${STATUS} challenges { slug } } }`,
      {
        input: {
          visibility: 'public',
          expirationTimeWeeks: 4,
          acceptCredit: true,
          ...demo.input,
          challengedUsername,
        },
      },
    );
    if (created.status.success) return created.challenges[0].slug;
    const waiting = ['insufficient_funds', 'user_not_found', 'unavailable_too_young'];
    if (!waiting.includes(created.status.identifier)) {
      throw new Error(`${created.status.identifier}: ${created.status.message}`);
    }
    await sleep(500);
  }
  throw new Error('the demo challenge could not be created within 30 s');
}

async function expectSuccess(promise, what) {
  const data = await promise;
  const result = Object.values(data)[0];
  if (!result.status.success) throw new Error(`${what}: ${result.status.identifier}`);
}

export async function seedDemoChallenges({ gatewayUrl, accounts }) {
  const tokens = Object.fromEntries(accounts.map((account) => [account.username, account.token]));
  if (!tokens.alice || !tokens.bob) return;
  if (await hasChallenges(gatewayUrl, tokens.alice)) return;
  for (const demo of DEMO_CHALLENGES) {
    const slug = await create(gatewayUrl, tokens[demo.owner], demo, demo.challenged);
    const setStatus = (who, status, reason) =>
      expectSuccess(
        call(
          gatewayUrl,
          tokens[who],
          `mutation($input: UpdateChallengeStatusInput!) { updateChallengeStatus(input: $input) {
            ${STATUS} } }`,
          { input: { slug, status, reason } },
        ),
        `${status} ${slug}`,
      );
    if (demo.leaveIn === 'accepted') await setStatus(demo.challenged, 'accepted');
    if (demo.leaveIn === 'refused') await setStatus(demo.challenged, 'refused', demo.reason);
    if (demo.leaveIn === 'cancelled') {
      await expectSuccess(
        call(
          gatewayUrl,
          tokens[demo.owner],
          `mutation($slug: String!) { cancelChallenge(slug: $slug) { ${STATUS} } }`,
          { slug },
        ),
        `cancel ${slug}`,
      );
    }
    const euros = (demo.input.challengeReward / 100).toFixed(2);
    console.log(
      `demo challenge  ${demo.owner} -> ${demo.challenged}  €${euros}  ${demo.leaveIn.padEnd(9)} ${slug}`,
    );
  }
}
