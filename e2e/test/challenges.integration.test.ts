import { TOPICS } from '@challenge/events';
import { buildApp as buildChallenge } from '@challenge/challenge/app';
import { startRuntime } from '@challenge/kit';
import {
  TEST_INTERNAL_API_TOKEN,
  eventually,
  inbox,
  produceRaw,
  readTopic,
  testRuntimeEnv,
  type Caller,
} from '@challenge/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BY_SLUG,
  BY_STATUS,
  CANCEL,
  CREATE,
  DASHBOARD,
  EDIT,
  RECONCILIATION,
  SET_STATUS,
  challengeIn,
  challengeInput,
  challengeOf,
  createChallengeEventually,
  person,
  refereeDecided,
  send,
  setStatus,
  statusBecomes,
  videoProcessed,
  walletsBecome,
  type Person,
} from '../support/challenges.ts';
import { startPlatform, type Platform } from '../support/platform.ts';

/**
 * The challenge lifecycle through the real gateway with all six services (issue 11): one test
 * per path, each asserting both wallets (available and frozen) afterwards and wallet's escrow
 * reconciliation empty. Media's VideoProcessed and moderation's RefereeDecided are produced on
 * Kafka as those services will publish them (ADR 28). The scheduler runs every 200 ms on a clock
 * the tests move forward, so expiry and the judging window take a moment, not weeks.
 */

const FUNDS = 2_000;
const REWARD = 500;
const DAY = 86_400_000;

describe('the challenge lifecycle through the gateway, money included', () => {
  let platform: Platform;
  let clockOffsetMs = 0;
  let staff: Person;
  let referee: Person;

  /** A funded owner and a challenged adult with an empty wallet: fresh for every path. */
  async function parties() {
    const [owner, challenged] = await Promise.all([
      person(platform, { cents: FUNDS }),
      person(platform),
    ]);
    return { owner, challenged };
  }

  const free = (cents: number) => ({ availableAmount: cents, freezeAmount: 0 });

  /** Wallet's reconciliation: no hold without a live challenge, no live challenge without hold. */
  async function reconciliationIsEmpty() {
    const response = await send(platform, RECONCILIATION, {}, staff);
    expect(response.data?.escrowReconciliation).toMatchObject({
      status: { success: true },
      holdsWithoutLiveChallenge: [],
      liveChallengesWithoutHold: [],
    });
  }

  beforeAll(async () => {
    platform = await startPlatform(
      {},
      {
        schedulerIntervalMs: 200,
        schedulerClock: () => new Date(Date.now() + clockOffsetMs),
      },
    );
    [staff, referee] = await Promise.all([
      person(platform, { roles: ['user', 'moderator'] }),
      person(platform, { roles: ['user', 'referee'] }),
    ]);
  }, 120_000);
  afterAll(async () => {
    await platform?.stop();
  });

  describe('one test per path', () => {
    it('approve: the owner approves the video, the challenged user is paid', async () => {
      const { owner, challenged } = await parties();
      const { slug } = await challengeIn(platform, 'review', { owner, challenged });
      await walletsBecome(platform, [
        [owner, { availableAmount: FUNDS - REWARD, freezeAmount: REWARD }],
        [challenged, free(0)],
      ]);
      expect((await setStatus(platform, owner, slug, 'completed')).status.success).toBe(true);
      await walletsBecome(platform, [
        [owner, free(FUNDS - REWARD)],
        [challenged, free(REWARD)],
      ]);
      await reconciliationIsEmpty();
    });

    it('reject, then the referee approves (moderation RefereeDecided): the challenged user is paid', async () => {
      const { owner, challenged } = await parties();
      const { slug, id } = await challengeIn(platform, 'referee', { owner, challenged });
      await statusBecomes(platform, owner, slug, 'referee');
      await refereeDecided(platform, id, referee.id, 'approved');
      await statusBecomes(platform, owner, slug, 'completed');
      await walletsBecome(platform, [
        [owner, free(FUNDS - REWARD)],
        [challenged, free(REWARD)],
      ]);
      await reconciliationIsEmpty();
    });

    it('reject, then the referee fails the video: the owner gets the reward back', async () => {
      const { owner, challenged } = await parties();
      const { slug, id } = await challengeIn(platform, 'referee', { owner, challenged });
      await refereeDecided(platform, id, referee.id, 'failed');
      await statusBecomes(platform, owner, slug, 'failed');
      await walletsBecome(platform, [
        [owner, free(FUNDS)],
        [challenged, free(0)],
      ]);
      await reconciliationIsEmpty();
    });

    it('reject, then nobody decides through updateChallengeStatus: a referee decides in the case only (ADR 70)', async () => {
      const { owner, challenged } = await parties();
      const { slug } = await challengeIn(platform, 'referee', { owner, challenged });
      // The challenged user cannot judge their own video, the owner cannot overrule the referee.
      expect((await setStatus(platform, challenged, slug, 'completed')).status.identifier).toBe(
        'invalid_challenge_owner',
      );
      expect((await setStatus(platform, owner, slug, 'failed')).status.identifier).toBe(
        'invalid_action',
      );
      // The referee is sent to the referee case (moderation: conflict rule, audit log).
      for (const status of ['completed', 'failed']) {
        expect((await setStatus(platform, referee, slug, status, 'Fine.')).status.identifier).toBe(
          'referee_case_required',
        );
      }
      expect((await challengeOf(platform, owner, slug))?.challenge.status).toBe('referee');
      await walletsBecome(platform, [
        [owner, { availableAmount: FUNDS - REWARD, freezeAmount: REWARD }],
        [challenged, free(0)],
      ]);
    });

    it('decline: the challenged user says no with a reason, the owner gets the reward back', async () => {
      const { owner, challenged } = await parties();
      const { slug } = await challengeIn(platform, 'open', { owner, challenged });
      const noReason = await setStatus(platform, challenged, slug, 'refused');
      expect(noReason.status).toMatchObject({ success: false, message: 'Please provide a reason' });
      const declined = await setStatus(platform, challenged, slug, 'refused', 'Not my thing.');
      expect(declined.status.success).toBe(true);
      await walletsBecome(platform, [
        [owner, free(FUNDS)],
        [challenged, free(0)],
      ]);
      await reconciliationIsEmpty();
    });

    it('cancel: the owner cancels before anyone accepted, the reward comes back', async () => {
      const { owner, challenged } = await parties();
      const { slug } = await challengeIn(platform, 'open', { owner, challenged });
      await walletsBecome(platform, [
        [owner, { availableAmount: FUNDS - REWARD, freezeAmount: REWARD }],
        [challenged, free(0)],
      ]);
      const cancelled = await send(platform, CANCEL, { slug }, owner);
      expect(cancelled.data?.cancelChallenge.status.success).toBe(true);
      await statusBecomes(platform, owner, slug, 'cancelled');
      await walletsBecome(platform, [
        [owner, free(FUNDS)],
        [challenged, free(0)],
      ]);
      await reconciliationIsEmpty();
    });

    it('an e-mail invitation is claimed at sign-up: the new account accepts and is paid', async () => {
      const owner = await person(platform, { cents: FUNDS });
      const email = `invited-${crypto.randomUUID().slice(0, 8)}@example.test`;
      const slug = await createChallengeEventually(platform, owner, { emails: email });
      await walletsBecome(platform, [
        [owner, { availableAmount: FUNDS - REWARD, freezeAmount: REWARD }],
      ]);
      // The address has no account: notification mails the invitation (with the challenge).
      const [invitation] = await eventually(async () => {
        const mails = await inbox(email);
        if (!mails.length) throw new Error('no invitation mail yet');
        return mails;
      });
      expect(invitation!.text).toContain(slug);
      const invited = await person(platform, { email });
      // UserRegistered carries the address: the challenge becomes the new account's.
      const { id } = await statusBecomes(platform, owner, slug, 'open');
      const accepted = await eventuallyAccepted(invited, slug);
      expect(accepted.challenge.proofPhrase).toMatch(/^\w+ \w+ \d+$/);
      await videoProcessed(platform, id, invited.id);
      await statusBecomes(platform, owner, slug, 'review');
      expect((await setStatus(platform, owner, slug, 'completed')).status.success).toBe(true);
      await walletsBecome(platform, [
        [owner, free(FUNDS - REWARD)],
        [invited, free(REWARD)],
      ]);
      await reconciliationIsEmpty();
    });

    it('expire: past its expiration date the scheduler expires it, the reward comes back', async () => {
      const { owner, challenged } = await parties();
      const { slug } = await challengeIn(platform, 'accepted', { owner, challenged });
      try {
        clockOffsetMs = 3 * 7 * DAY; // the challenge ran for two weeks
        await statusBecomes(platform, owner, slug, 'expired');
      } finally {
        clockOffsetMs = 0;
      }
      await walletsBecome(platform, [
        [owner, free(FUNDS)],
        [challenged, free(0)],
      ]);
      await reconciliationIsEmpty();
    });

    it('the owner stays silent past the judging window: counted as approval, the user is paid', async () => {
      const { owner, challenged } = await parties();
      const { slug } = await challengeIn(platform, 'review', { owner, challenged });
      try {
        clockOffsetMs = 7 * DAY + 60_000;
        await statusBecomes(platform, owner, slug, 'completed');
      } finally {
        clockOffsetMs = 0;
      }
      await walletsBecome(platform, [
        [owner, free(FUNDS - REWARD)],
        [challenged, free(REWARD)],
      ]);
      await reconciliationIsEmpty();
    });
  });

  /**
   * Duels (docs/adr/0032): both stake the reward and both perform, each judging the other's video.
   * Both parties start with FUNDS; the challenged user's stake is held on acceptance.
   */
  describe('duels', () => {
    const SIDES = `query ($input: GetChallengeBySlugInput!) { getChallengeBySlug(input: $input) {
      challenge { id status sides { performer { id } status } } } }`;

    async function duelInReview() {
      const [owner, challenged] = await Promise.all([
        person(platform, { cents: FUNDS }),
        person(platform, { cents: FUNDS }),
      ]);
      const slug = await createChallengeEventually(platform, owner, {
        challenged,
        challengeType: 'duel',
      });
      const { id } = await statusBecomes(platform, owner, slug, 'open');
      await eventuallyAccepted(challenged, slug);
      await walletsBecome(platform, [
        [owner, { availableAmount: FUNDS - REWARD, freezeAmount: REWARD }],
        [challenged, { availableAmount: FUNDS - REWARD, freezeAmount: REWARD }],
      ]);
      await videoProcessed(platform, id, challenged.id);
      await videoProcessed(platform, id, owner.id);
      await eventually(async () => {
        const response = await send(platform, SIDES, { input: { slug } }, owner);
        const sides = response.data?.getChallengeBySlug.challenge?.sides ?? [];
        expect(sides.map((side: { status: string }) => side.status)).toEqual(['review', 'review']);
      }, 20_000);
      return { owner, challenged, slug, id };
    }

    it('a duel where one side fails: the other takes both stakes', async () => {
      const { owner, challenged, slug, id } = await duelInReview();
      // The owner rejects the challenged user's video; the challenged user approves the owner's.
      const rejected = await setStatus(platform, owner, slug, 'referee', 'Not the proof phrase.');
      expect(rejected.status.success).toBe(true);
      expect((await setStatus(platform, challenged, slug, 'completed')).status.success).toBe(true);
      await statusBecomes(platform, owner, slug, 'referee');
      // Moderation's referee fails the disputed side (the one side in referee).
      await refereeDecided(platform, id, referee.id, 'failed');
      await statusBecomes(platform, owner, slug, 'completed');
      await walletsBecome(platform, [
        [owner, free(FUNDS + REWARD)],
        [challenged, free(FUNDS - REWARD)],
      ]);
      await reconciliationIsEmpty();
    });

    it('a duel where both complete: each keeps their own stake', async () => {
      const { owner, challenged, slug } = await duelInReview();
      expect((await setStatus(platform, owner, slug, 'completed')).status.success).toBe(true);
      expect((await setStatus(platform, challenged, slug, 'completed')).status.success).toBe(true);
      await statusBecomes(platform, owner, slug, 'completed');
      await walletsBecome(platform, [
        [owner, free(FUNDS)],
        [challenged, free(FUNDS)],
      ]);
      await reconciliationIsEmpty();
    });
  });

  /** The challenged user's projection may lag the registration; accepted once it has caught up. */
  async function eventuallyAccepted(who: Caller, slug: string) {
    return eventually(async () => {
      const result = await setStatus(platform, who, slug, 'accepted');
      if (!result.status.success) throw new Error(JSON.stringify(result.status));
      return result;
    });
  }

  describe('exactly once', () => {
    it('a redelivered ChallengeCompleted and a second challenge instance move the money once', async () => {
      // A second instance of the challenge service on the same database and topics: its
      // consumers and scheduler run beside the first one's.
      const env = { ...(await testRuntimeEnv(platform.topicPrefix)), LOG_LEVEL: 'silent' };
      const runtime = await startRuntime('challenge', env);
      await buildChallenge(runtime, platform.challenge.database.url, {
        wallet: {
          internalUrl: new URL(platform.wallet.url).origin,
          internalApiToken: TEST_INTERNAL_API_TOKEN,
        },
        schedulerIntervalMs: 200,
      });
      try {
        const { owner, challenged } = await parties();
        const { slug, id } = await challengeIn(platform, 'referee', { owner, challenged });
        // The same decision twice (a redelivery), and the referee's own click as well.
        await refereeDecided(platform, id, referee.id, 'approved');
        await refereeDecided(platform, id, referee.id, 'approved');
        await statusBecomes(platform, owner, slug, 'completed');
        const messages = await readTopic(platform.topicPrefix, TOPICS.challenge, (all) =>
          all.some((m) => m.key?.toString() === id && m.value?.includes('ChallengeCompleted')),
        );
        const completed = messages.filter(
          (m) => m.key?.toString() === id && m.value?.includes('ChallengeCompleted'),
        );
        expect(completed).toHaveLength(1);
        // Kafka redelivers it: wallet must not pay twice.
        await produceRaw(platform.topicPrefix, TOPICS.challenge, [
          { key: id, value: completed[0]!.value!.toString() },
          { key: id, value: completed[0]!.value!.toString() },
        ]);
        await walletsBecome(platform, [
          [owner, free(FUNDS - REWARD)],
          [challenged, free(REWARD)],
        ]);
        // Still so once the redeliveries had time to be handled.
        await new Promise((resolve) => setTimeout(resolve, 1_500));
        await walletsBecome(platform, [
          [owner, free(FUNDS - REWARD)],
          [challenged, free(REWARD)],
        ]);
        await reconciliationIsEmpty();
      } finally {
        await runtime.lifecycle.stop('test finished');
      }
    });

    it('concurrent accepts make one transition', async () => {
      const { owner, challenged } = await parties();
      const { slug } = await challengeIn(platform, 'open', { owner, challenged });
      const answers = await Promise.all(
        Array.from({ length: 6 }, () => setStatus(platform, challenged, slug, 'accepted')),
      );
      const successes = answers.filter((answer) => answer.status.success);
      expect(successes).toHaveLength(1);
      expect(answers.filter((a) => !a.status.success).map((a) => a.status.identifier)).toEqual(
        Array(5).fill('status_unchanged'),
      );
      const messages = await readTopic(platform.topicPrefix, TOPICS.challenge, (all) =>
        all.some((m) => m.value?.includes('ChallengeAccepted') && m.value.includes(slug)),
      );
      expect(
        messages.filter((m) => m.value?.includes('ChallengeAccepted') && m.value.includes(slug)),
      ).toHaveLength(1);
    });
  });

  describe('who may do what', () => {
    it('a stranger cannot accept, judge, cancel or edit a public challenge', async () => {
      const { owner, challenged } = await parties();
      const stranger = await person(platform, { cents: FUNDS });
      const open = await challengeIn(platform, 'open', { owner, challenged });
      const review = await challengeIn(platform, 'review', { owner, challenged });
      expect((await setStatus(platform, stranger, open.slug, 'accepted')).status.identifier).toBe(
        'invalid_action',
      );
      expect(
        (await setStatus(platform, stranger, open.slug, 'refused', 'No.')).status.identifier,
      ).toBe('invalid_action');
      expect(
        (await setStatus(platform, stranger, review.slug, 'completed')).status.identifier,
      ).toBe('invalid_challenge_owner');
      expect(
        (await setStatus(platform, stranger, review.slug, 'referee', 'No.')).status.identifier,
      ).toBe('invalid_challenge_owner');
      const cancel = await send(platform, CANCEL, { slug: open.slug }, stranger);
      expect(cancel.data?.cancelChallenge.status.identifier).toBe('invalid_challenge_owner');
      const edit = await send(
        platform,
        EDIT,
        { input: { slug: open.slug, challengeDescription: 'Mine now.' } },
        stranger,
      );
      expect(edit.data?.updateChallenge.status.identifier).toBe('invalid_challenge_owner');
      // The challenged user cannot judge their own video either.
      expect(
        (await setStatus(platform, challenged, review.slug, 'completed')).status.identifier,
      ).toBe('invalid_challenge_owner');
      expect((await challengeOf(platform, owner, open.slug))?.challenge.status).toBe('open');
      expect((await challengeOf(platform, owner, review.slug))?.challenge.status).toBe('review');
      await walletsBecome(platform, [
        [owner, { availableAmount: FUNDS - 2 * REWARD, freezeAmount: 2 * REWARD }],
        [stranger, free(FUNDS)],
      ]);
    });

    it('a banned user can do nothing: every challenge operation answers banned_user', async () => {
      const { owner, challenged } = await parties();
      const { slug } = await challengeIn(platform, 'open', { owner, challenged });
      const ban = await send(
        platform,
        'mutation ($input: BanUserInput!) { banUser(input: $input) { status { success } } }',
        { input: { userId: challenged.id, type: 'hard' } },
        staff,
      );
      expect(ban.data?.banUser.status.success).toBe(true);
      const banOwner = await send(
        platform,
        'mutation ($input: BanUserInput!) { banUser(input: $input) { status { success } } }',
        { input: { userId: owner.id, type: 'hard' } },
        staff,
      );
      expect(banOwner.data?.banUser.status.success).toBe(true);
      const identifierOf = (response: { errors?: { extensions?: { identifier?: unknown } }[] }) =>
        response.errors?.[0]?.extensions?.identifier;
      const asBanned = async (who: Person, query: string, variables: Record<string, unknown>) =>
        identifierOf(await send(platform, query, variables, who));
      for (const [who, query, variables] of [
        [challenged, SET_STATUS, { input: { slug, status: 'accepted' } }],
        [challenged, BY_SLUG, { input: { slug } }],
        [challenged, DASHBOARD, {}],
        [owner, CREATE, { input: challengeInput({ challenged: staff }) }],
        [owner, CANCEL, { slug }],
        [owner, EDIT, { input: { slug, challengeDescription: 'Still mine.' } }],
        [owner, BY_STATUS, { input: { status: 'open' } }],
      ] as const) {
        expect(await asBanned(who, query, variables)).toBe('banned_user');
      }
    });

    it('a private challenge is invisible to strangers in every query, visible to parties and staff', async () => {
      const { owner, challenged } = await parties();
      const stranger = await person(platform);
      const { slug } = await challengeIn(
        platform,
        'open',
        { owner, challenged },
        { visibility: 'private' },
      );
      const bySlug = async (who?: Caller) =>
        (await send(platform, BY_SLUG, { input: { slug } }, who)).data?.getChallengeBySlug;
      const listed = async (who?: Caller) => {
        const page = (
          await send(platform, BY_STATUS, { input: { status: 'open', itemsPerPage: 100 } }, who)
        ).data?.getChallengesByStatus;
        return page.challenges.some((c: { slug: string }) => c.slug === slug);
      };
      const onDashboard = async (who: Caller) => {
        const dashboard = (await send(platform, DASHBOARD, {}, who)).data?.getDashboardChallenges;
        return [...dashboard.runningChallenges, ...dashboard.challengeRequests].some(
          (c: { slug: string }) => c.slug === slug,
        );
      };
      for (const who of [undefined, stranger]) {
        expect((await bySlug(who)).status.identifier).toBe('challenge_not_found');
        expect(await listed(who)).toBe(false);
      }
      expect(await onDashboard(stranger)).toBe(false);
      for (const who of [owner, challenged, staff, referee]) {
        expect((await bySlug(who)).status.success).toBe(true);
        expect(await listed(who)).toBe(true);
      }
      expect(await onDashboard(owner)).toBe(true);
      expect(await onDashboard(challenged)).toBe(true);
    });
  });
});
