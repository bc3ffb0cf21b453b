import { randomUUID } from 'node:crypto';
import { markBanned } from '@challenge/kit';
import { eventually, graphql, uniqueTopicPrefix } from '@challenge/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { transition } from '../src/domain/status.ts';
import {
  registerUser,
  startPlatform,
  topUp,
  settledWalletOf,
  walletOf,
  type Platform,
  type TestUser,
} from './support/platform.ts';

const STATUS = 'status { success identifier message }';
const FIELDS = `id slug status reason proofPhrase challengedEmail judgedByReferee visibility
  challengeDescription expirationTimeWeeks judgingDeadline owner { id } challengedUser { id }`;

const CREATE = `mutation ($input: CreateChallengeInput!) {
  createChallenge(input: $input) { ${STATUS} challenges { slug } } }`;
const UPDATE_STATUS = `mutation ($input: UpdateChallengeStatusInput!) {
  updateChallengeStatus(input: $input) { ${STATUS} challenge { ${FIELDS} } } }`;
const CANCEL = `mutation ($slug: String!) { cancelChallenge(slug: $slug) { ${STATUS} } }`;
const UPDATE = `mutation ($input: UpdateChallengeInput!) {
  updateChallenge(input: $input) { ${STATUS} challenge { ${FIELDS} } } }`;
const BY_SLUG = `query ($slug: String!) {
  getChallengeBySlug(input: { slug: $slug }) { ${STATUS} challenge { ${FIELDS} } } }`;
const BY_STATUS = `query ($input: GetChallengesByStatusInput!) {
  getChallengesByStatus(input: $input) { ${STATUS} totalChallengesCount
    pagination { currentPage totalPages totalCount } challenges { slug } } }`;
const DASHBOARD = `{ getDashboardChallenges { ${STATUS} runningChallengesCount
  challengeRequestsCount runningChallenges { slug } challengeRequests { slug } } }`;

let platform: Platform;
let owner: TestUser;
let friend: TestUser;
let stranger: TestUser;
const referee = { id: randomUUID(), roles: ['user' as const, 'referee' as const] };
const moderator = { id: randomUUID(), roles: ['user' as const, 'moderator' as const] };

beforeAll(async () => {
  platform = await startPlatform(uniqueTopicPrefix());
  [owner, friend, stranger] = await Promise.all([
    registerUser(platform),
    registerUser(platform),
    registerUser(platform),
  ]);
  await topUp(platform, owner, 10_000);
});

afterAll(() => platform?.stop());

async function call(query: string, variables: Record<string, unknown>, who?: { id: string }) {
  const { data, errors } = await graphql(platform.challenge.url, query, variables, who);
  expect(errors).toBeUndefined();
  // The one field a query asks for (typed loosely, as graphql() does).
  const [result] = Object.values(data!);
  return result as typeof result & { status: { success: boolean; identifier: string } };
}

async function newChallenge(input: Record<string, unknown> = {}): Promise<string> {
  const result = await call(
    CREATE,
    {
      input: {
        challengeName: 'Juggle three oranges',
        challengeDescription: 'For a whole minute.',
        challengeReward: 300,
        tags: ['juggling'],
        acceptCredit: true,
        challengedUsername: friend.username,
        ...input,
      },
    },
    owner,
  );
  expect(result.status.identifier).toBe('ok');
  return result.challenges[0].slug;
}

const setStatus = (
  who: { id: string } | undefined,
  slug: string,
  status: string,
  reason?: string,
) => call(UPDATE_STATUS, { input: { slug, status, reason } }, who);

const rowOf = (slug: string) =>
  platform.challenge.app.db.challenge.findUniqueOrThrow({ where: { slug } });

const eventTypes = async (slug: string) => {
  const { id } = await rowOf(slug);
  const rows = await platform.challenge.app.db.outboxEvent.findMany({
    where: { key: id },
    orderBy: { seq: 'asc' },
  });
  return rows.map((row) => row.type);
};

/** media's VideoProcessed, as its consumer will apply it. */
const videoProcessed = async (slug: string) =>
  transition(platform.challenge.app.db, (await rowOf(slug)).id, {
    action: 'videoProcessed',
    actors: ['system'],
    actorId: null,
    videoId: randomUUID(),
  });

describe('accept and decline', () => {
  it('lets only the challenged user accept; acceptance gives the proof phrase to both parties', async () => {
    const slug = await newChallenge();
    for (const who of [stranger, owner, referee]) {
      expect((await setStatus(who, slug, 'accepted')).status.identifier).toBe('invalid_action');
    }
    const accepted = await setStatus(friend, slug, 'accepted');
    expect(accepted.status.identifier).toBe('ok');
    expect(accepted.challenge).toMatchObject({
      slug,
      status: 'accepted',
      owner: { id: owner.id },
      challengedUser: { id: friend.id },
      proofPhrase: expect.stringMatching(/^[a-z]+ [a-z]+ \d{2}$/),
    });
    const phrase = accepted.challenge!.proofPhrase;
    const seen = async (who?: { id: string }) =>
      (await call(BY_SLUG, { slug }, who)).challenge!.proofPhrase;
    expect(await seen(owner)).toBe(phrase);
    expect(await seen(moderator)).toBe(phrase);
    expect(await seen(stranger)).toBeNull();
    expect(await seen()).toBeNull();
    expect((await setStatus(friend, slug, 'accepted')).status.identifier).toBe('status_unchanged');
    expect((await setStatus(friend, slug, 'refused', 'no')).status.identifier).toBe(
      'invalid_status_change',
    );
    expect(await eventTypes(slug)).toEqual(['ChallengeCreated', 'ChallengeAccepted']);
  });

  it('makes one transition of concurrent accepts', async () => {
    const slug = await newChallenge();
    const results = await Promise.all(
      Array.from({ length: 6 }, () => setStatus(friend, slug, 'accepted')),
    );
    const identifiers = results.map((result) => result.status.identifier).sort();
    expect(identifiers).toEqual(['ok', ...Array(5).fill('status_unchanged')]);
    expect(await eventTypes(slug)).toEqual(['ChallengeCreated', 'ChallengeAccepted']);
  });

  it('needs a reason to decline, at most 800 characters counted as characters', async () => {
    const slug = await newChallenge();
    for (const reason of [undefined, '', '   ']) {
      const result = await setStatus(friend, slug, 'refused', reason);
      expect(result.status).toMatchObject({
        identifier: 'invalid_input',
        message: 'Please provide a reason',
      });
    }
    const tooLong = await setStatus(friend, slug, 'refused', '🏃'.repeat(801));
    expect(tooLong.status.identifier).toBe('invalid_input');
    expect((await rowOf(slug)).status).toBe('open');

    const before = await settledWalletOf(platform, owner);
    const reason = '🏃'.repeat(800); // 800 characters, 1600 UTF-16 units
    const declined = await setStatus(friend, slug, 'refused', reason);
    expect(declined.status.identifier).toBe('ok');
    expect(declined.challenge).toMatchObject({ status: 'refused', reason });
    expect(await eventTypes(slug)).toEqual(['ChallengeCreated', 'ChallengeRefused']);
    // Wallet releases the hold on ChallengeRefused.
    await eventually(async () =>
      expect(await walletOf(platform, owner)).toEqual({
        availableAmount: before.availableAmount + 300,
        freezeAmount: before.freezeAmount - 300,
      }),
    );
  });

  it('refuses accepting after the expiration date with challenge_expired', async () => {
    const slug = await newChallenge();
    await platform.challenge.app.db.challenge.update({
      where: { slug },
      data: { expirationDate: new Date(Date.now() - 1000) },
    });
    expect((await setStatus(friend, slug, 'accepted')).status.identifier).toBe('challenge_expired');
    expect((await setStatus(friend, slug, 'refused', 'late')).status.identifier).toBe(
      'challenge_expired',
    );
  });

  it('refuses a user under 18 accepting', async () => {
    const minor = await registerUser(platform, {
      birthday: `${new Date().getUTCFullYear() - 16}-01-01`,
    });
    const slug = await newChallenge({ challengedUsername: minor.username });
    expect((await setStatus(minor, slug, 'accepted')).status.identifier).toBe(
      'unavailable_too_young',
    );
  });
});

describe('judging', () => {
  it('lets only the owner approve; the reward goes to the challenged user', async () => {
    const slug = await newChallenge();
    await setStatus(friend, slug, 'accepted');
    expect((await setStatus(owner, slug, 'completed')).status.identifier).toBe(
      'invalid_status_change',
    );
    await videoProcessed(slug);
    const inReview = (await call(BY_SLUG, { slug }, owner)).challenge!;
    expect(inReview.status).toBe('review');
    expect(new Date(inReview.judgingDeadline).getTime()).toBeGreaterThan(
      Date.now() + 6.9 * 86_400_000,
    );
    // Nobody but the owner judges; the challenged user cannot judge their own video.
    for (const who of [friend, stranger]) {
      for (const [status, reason] of [['completed'], ['referee', 'bad']]) {
        expect((await setStatus(who, slug, status!, reason)).status.identifier).toBe(
          'invalid_challenge_owner',
        );
      }
    }
    // A referee never decides here: disputes are decided in moderation's case (docs/adr/0070).
    expect((await setStatus(referee, slug, 'completed')).status.identifier).toBe(
      'referee_case_required',
    );
    const friendBefore = await walletOf(platform, friend);
    const approved = await setStatus(owner, slug, 'completed');
    expect(approved.challenge).toMatchObject({ status: 'completed', judgedByReferee: false });
    expect(await eventTypes(slug)).toEqual([
      'ChallengeCreated',
      'ChallengeAccepted',
      'ChallengeVideoUploaded',
      'ChallengeCompleted',
    ]);
    await eventually(async () =>
      expect((await walletOf(platform, friend)).availableAmount).toBe(
        friendBefore.availableAmount + 300,
      ),
    );
  });

  it('sends a rejected video to the referee with the reason; a referee decides only in the case', async () => {
    const slug = await newChallenge();
    await setStatus(friend, slug, 'accepted');
    await videoProcessed(slug);
    expect((await setStatus(owner, slug, 'referee')).status.message).toBe(
      'Please provide a reason',
    );
    const rejected = await setStatus(owner, slug, 'referee', 'That is not three oranges.');
    expect(rejected.challenge).toMatchObject({
      status: 'referee',
      reason: 'That is not three oranges.',
    });
    expect((await setStatus(owner, slug, 'completed')).status.identifier).toBe(
      'invalid_status_change',
    );
    expect((await setStatus(friend, slug, 'failed')).status.identifier).toBe('invalid_action');
    // Moderation's case decides (RefereeDecided: referee.integration.test.ts), not this call.
    const refused = await setStatus(referee, slug, 'failed', 'Only two oranges.');
    expect(refused.status.identifier).toBe('referee_case_required');
    expect((await rowOf(slug)).status).toBe('referee');
    expect(await eventTypes(slug)).toEqual([
      'ChallengeCreated',
      'ChallengeAccepted',
      'ChallengeVideoUploaded',
      'ChallengeSentToReferee',
    ]);
  });
});

describe('cancelChallenge', () => {
  it('lets only the owner cancel before acceptance, and gives the reward back', async () => {
    const slug = await newChallenge();
    for (const who of [friend, stranger, referee]) {
      expect((await call(CANCEL, { slug }, who)).status.identifier).toBe('invalid_challenge_owner');
    }
    expect((await call(CANCEL, { slug })).status.identifier).toBe('unauthorized');
    const before = await settledWalletOf(platform, owner);
    expect((await call(CANCEL, { slug }, owner)).status.identifier).toBe('ok');
    expect((await call(CANCEL, { slug }, owner)).status.identifier).toBe('status_unchanged');
    expect(await eventTypes(slug)).toEqual(['ChallengeCreated', 'ChallengeCancelled']);
    await eventually(async () =>
      expect(await walletOf(platform, owner)).toEqual({
        availableAmount: before.availableAmount + 300,
        freezeAmount: before.freezeAmount - 300,
      }),
    );
    const accepted = await newChallenge();
    await setStatus(friend, accepted, 'accepted');
    expect((await call(CANCEL, { slug: accepted }, owner)).status.identifier).toBe(
      'invalid_status_change',
    );
  });
});

describe('updateChallenge', () => {
  it("changes the owner's description, visibility and expiration, and nobody else's", async () => {
    const slug = await newChallenge();
    const edit = (who: { id: string }, change: Record<string, unknown>) =>
      call(UPDATE, { input: { slug, ...change } }, who);
    for (const who of [friend, stranger, moderator]) {
      expect((await edit(who, { challengeDescription: 'Mine now' })).status.identifier).toBe(
        'invalid_challenge_owner',
      );
    }
    expect((await edit(owner, { visibility: 'secret' })).status.identifier).toBe(
      'invalid_visibility_input',
    );
    expect((await edit(owner, { expirationTimeWeeks: 10 })).status.identifier).toBe(
      'invalid_expiration_time',
    );
    const edited = await edit(owner, {
      challengeDescription: 'Two minutes now.',
      visibility: 'private',
      expirationTimeWeeks: 3,
    });
    expect(edited.status.identifier).toBe('ok');
    expect(edited.challenge).toMatchObject({
      challengeDescription: 'Two minutes now.',
      visibility: 'private',
      expirationTimeWeeks: 3,
    });
    await setStatus(friend, slug, 'accepted');
    expect((await edit(owner, { expirationTimeWeeks: 4 })).status.identifier).toBe(
      'invalid_status_change',
    );
    expect((await edit(owner, { visibility: 'public' })).status.identifier).toBe('ok');
  });

  it('keeps the description of a challenge that is over; its visibility still changes (docs/adr/0067)', async () => {
    const slug = await newChallenge();
    expect((await call(CANCEL, { slug }, owner)).status.identifier).toBe('ok');
    const edit = (change: Record<string, unknown>) =>
      call(UPDATE, { input: { slug, ...change } }, owner);
    expect((await edit({ challengeDescription: 'Rewritten later.' })).status.identifier).toBe(
      'description_not_editable',
    );
    expect(
      (await edit({ challengeDescription: 'Rewritten later.', visibility: 'private' })).status
        .identifier,
    ).toBe('description_not_editable');
    expect((await rowOf(slug)).visibility).toBe('public');
    const hidden = await edit({ visibility: 'private' });
    expect(hidden.status.identifier).toBe('ok');
    expect(hidden.challenge).toMatchObject({ visibility: 'private' });
    expect((await rowOf(slug)).description).not.toBe('Rewritten later.');
  });

  it('keeps the description once accepted: it is what the challenged user agreed to (docs/adr/0077)', async () => {
    const slug = await newChallenge();
    const edit = (change: Record<string, unknown>) =>
      call(UPDATE, { input: { slug, ...change } }, owner);
    expect((await edit({ challengeDescription: 'Two minutes, no drops.' })).status.identifier).toBe(
      'ok',
    );
    await setStatus(friend, slug, 'accepted');
    for (const change of [
      { challengeDescription: 'Three minutes.' },
      { challengeDescription: 'Three minutes.', visibility: 'private' },
    ]) {
      expect((await edit(change)).status).toEqual({
        success: false,
        identifier: 'description_not_editable',
        message:
          'The description cannot change once the challenge is accepted: it is what was agreed.',
      });
    }
    expect(await rowOf(slug)).toMatchObject({
      description: 'Two minutes, no drops.',
      visibility: 'public',
    });
    expect((await edit({ visibility: 'private' })).status.identifier).toBe('ok');
    await videoProcessed(slug);
    await setStatus(owner, slug, 'referee', 'Dropped one.');
    // In referee too: the referee judges the video against the text that was accepted.
    expect((await edit({ challengeDescription: 'Dropping is fine.' })).status.identifier).toBe(
      'description_not_editable',
    );
    expect((await rowOf(slug)).description).toBe('Two minutes, no drops.');
  });

  it('serialises an edit racing the acceptance: the description accepted is the one kept', async () => {
    for (let round = 0; round < 4; round += 1) {
      const slug = await newChallenge();
      const edit = (description: string) =>
        call(UPDATE, { input: { slug, challengeDescription: description } }, owner);
      const [edited, accepted] = await Promise.all([
        edit('Raced in.'),
        setStatus(friend, slug, 'accepted'),
      ]);
      expect(accepted.status.identifier).toBe('ok');
      const row = await rowOf(slug);
      // Either the edit committed while open (the acceptance came after it and accepted it), or
      // the acceptance came first and the edit was refused.
      if (edited.status.success) expect(row.description).toBe('Raced in.');
      else {
        expect(edited.status.identifier).toBe('description_not_editable');
        expect(row.description).toBe('For a whole minute.');
      }
      expect((await edit('Changed afterwards.')).status.identifier).toBe(
        'description_not_editable',
      );
      expect((await rowOf(slug)).description).toBe(row.description);
    }
  });

  it('publishes ChallengeVisibilityChanged with a version each time the visibility changes', async () => {
    const slug = await newChallenge();
    const edit = (change: Record<string, unknown>) =>
      call(UPDATE, { input: { slug, ...change } }, owner);
    const published = async () => {
      const { id } = await rowOf(slug);
      const rows = await platform.challenge.app.db.outboxEvent.findMany({
        where: { key: id, type: 'ChallengeVisibilityChanged' },
        orderBy: { seq: 'asc' },
      });
      return rows.map((row) => {
        const { data } = row.payload as { data: { visibility: string; visibilityVersion: number } };
        return [data.visibility, data.visibilityVersion];
      });
    };
    // The same visibility again, or another field only: no event.
    expect((await edit({ visibility: 'public' })).status.identifier).toBe('ok');
    expect((await edit({ challengeDescription: 'Now on one leg.' })).status.identifier).toBe('ok');
    expect(await published()).toEqual([]);
    expect((await edit({ visibility: 'private' })).status.identifier).toBe('ok');
    expect((await edit({ visibility: 'private' })).status.identifier).toBe('ok');
    expect(
      (await edit({ visibility: 'public', challengeDescription: 'Both.' })).status.identifier,
    ).toBe('ok');
    expect(await published()).toEqual([
      ['private', 1],
      ['public', 2],
    ]);
    expect((await rowOf(slug)).visibilityVersion).toBe(2);
    // A refused edit (the expiration after acceptance) changes nothing and publishes nothing.
    await setStatus(friend, slug, 'accepted');
    const refused = await edit({ visibility: 'private', expirationTimeWeeks: 4 });
    expect(refused.status.identifier).toBe('invalid_status_change');
    expect(await published()).toHaveLength(2);
  });
});

describe('the visibility of one challenge changes at most 10 times an hour (docs/adr/0073)', () => {
  it('refuses the 11th change with too_many_requests and changes nothing; strangers and no-ops do not count', async () => {
    const slug = await newChallenge();
    const other = await newChallenge();
    const edit = (change: Record<string, unknown>, who: { id: string } = owner, on = slug) =>
      call(UPDATE, { input: { slug: on, ...change } }, who);
    // Refused or unchanged edits take nothing from the allowance.
    expect((await edit({ visibility: 'private' }, stranger)).status.identifier).toBe(
      'invalid_challenge_owner',
    );
    expect((await edit({ visibility: 'public' })).status.identifier).toBe('ok');
    for (let i = 0; i < 10; i++) {
      const visibility = i % 2 === 0 ? 'private' : 'public';
      expect((await edit({ visibility })).status.identifier).toBe('ok');
    }
    expect((await rowOf(slug)).visibilityVersion).toBe(10);
    const refused = await edit({ visibility: 'private' });
    expect(refused.status).toMatchObject({ success: false, identifier: 'too_many_requests' });
    expect(await rowOf(slug)).toMatchObject({ visibility: 'public', visibilityVersion: 10 });
    // Other fields, and other challenges, are not limited.
    expect((await edit({ challengeDescription: 'Still on one leg.' })).status.identifier).toBe(
      'ok',
    );
    expect((await edit({ visibility: 'private' }, owner, other)).status.identifier).toBe('ok');
  });
});

describe('authorisation', () => {
  it('refuses a banned user everything', async () => {
    const banned = await registerUser(platform);
    const slug = await newChallenge({ challengedUsername: banned.username });
    await markBanned(platform.challenge.runtime.redis, banned.id, true);
    try {
      // The token check refuses the request itself, before any resolver: an error, no data.
      for (const [query, variables] of [
        [UPDATE_STATUS, { input: { slug, status: 'accepted' } }],
        [CANCEL, { slug }],
        [DASHBOARD, {}],
        [BY_SLUG, { slug }],
      ] as const) {
        const { data, errors } = await graphql(platform.challenge.url, query, variables, banned);
        expect(errors?.[0]?.extensions?.identifier).toBe('banned_user');
        expect(data ?? null).toBeNull();
      }
      expect((await rowOf(slug)).status).toBe('open');
    } finally {
      await markBanned(platform.challenge.runtime.redis, banned.id, false);
    }
  });

  it('hides a private challenge from strangers in every query, not from its parties and staff', async () => {
    const slug = await newChallenge({ visibility: 'private', challengeReward: 150 });
    const inList = async (who?: { id: string }) => {
      const page = await call(BY_STATUS, { input: { status: 'open', itemsPerPage: 100 } }, who);
      return page.challenges.some((c: { slug: string }) => c.slug === slug);
    };
    for (const who of [stranger, undefined]) {
      expect((await call(BY_SLUG, { slug }, who)).status.identifier).toBe('challenge_not_found');
      expect(await inList(who)).toBe(false);
    }
    for (const who of [stranger]) {
      expect((await setStatus(who, slug, 'accepted')).status.identifier).toBe(
        'challenge_not_found',
      );
      expect((await call(CANCEL, { slug }, who)).status.identifier).toBe('challenge_not_found');
    }
    for (const who of [owner, friend, moderator, referee]) {
      expect((await call(BY_SLUG, { slug }, who)).status.identifier).toBe('ok');
      expect(await inList(who)).toBe(true);
    }
    const { id } = await rowOf(slug);
    const entities = await graphql(
      platform.challenge.url,
      'query ($r: [_Any!]!) { _entities(representations: $r) { ... on Challenge { slug } } }',
      { r: [{ __typename: 'Challenge', id }] },
      stranger,
    );
    expect(entities.data?._entities).toEqual([null]);
  });
});

describe('reads', () => {
  it('pages challenges by status with totalChallengesCount', async () => {
    const page = await call(BY_STATUS, { input: { status: 'open', page: 1, itemsPerPage: 2 } });
    expect(page.status.identifier).toBe('ok');
    expect(page.challenges.length).toBeLessThanOrEqual(2);
    expect(page.pagination).toEqual({
      currentPage: 1,
      totalPages: Math.max(1, Math.ceil(page.totalChallengesCount / 2)),
      totalCount: page.totalChallengesCount,
    });
    expect(page.totalChallengesCount).toBeGreaterThan(0);
    expect((await call(BY_STATUS, { input: { status: 'sleeping' } })).status.identifier).toBe(
      'invalid_status',
    );
    const solo = await call(BY_STATUS, { input: { status: 'open', challengeType: 'solo' } });
    const duel = await call(BY_STATUS, { input: { status: 'open', challengeType: 'duel' } });
    expect(solo.totalChallengesCount).toBe(page.totalChallengesCount);
    expect(duel.totalChallengesCount).toBe(0);
  });

  it("shows each party's running challenges and requests on the dashboard", async () => {
    const [alice, bob] = await Promise.all([registerUser(platform), registerUser(platform)]);
    await topUp(platform, alice, 1_000);
    const create = async () =>
      (
        await call(
          CREATE,
          {
            input: {
              challengeName: 'Sing a song',
              challengeDescription: 'In the rain.',
              challengeReward: 200,
              tags: ['music'],
              acceptCredit: true,
              challengedUsername: bob.username,
            },
          },
          alice,
        )
      ).challenges[0].slug as string;
    const [waiting, running] = [await create(), await create()];
    await setStatus(bob, running, 'accepted');
    const ofAlice = await call(DASHBOARD, {}, alice);
    expect(ofAlice).toMatchObject({ runningChallengesCount: 2, challengeRequestsCount: 0 });
    expect(ofAlice.runningChallenges.map((c: { slug: string }) => c.slug).sort()).toEqual(
      [waiting, running].sort(),
    );
    const ofBob = await call(DASHBOARD, {}, bob);
    expect(ofBob).toMatchObject({
      runningChallengesCount: 1,
      challengeRequestsCount: 1,
      runningChallenges: [{ slug: running }],
      challengeRequests: [{ slug: waiting }],
    });
    expect((await call(DASHBOARD, {})).status.identifier).toBe('unauthorized');
  });
});
