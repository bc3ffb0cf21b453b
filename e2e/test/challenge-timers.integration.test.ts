import { createVideoTools, UndecodableVideoError } from '@challenge/media/video-tools';
import type { VideoTools } from '@challenge/media/video-tools';
import { eventually, type Caller } from '@challenge/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  RECONCILIATION,
  challengeIn,
  challengeOf,
  createChallengeEventually,
  person,
  send,
  setStatus,
  statusBecomes,
  walletsBecome,
  type Person,
} from '../support/challenges.ts';
import { startPlatform, type Platform } from '../support/platform.ts';
import { ffmpegVideo, startTusUpload, uploadVideo } from '../support/uploads.ts';

/**
 * The challenge's timers across the services (issue 18, points 6 and 7; docs/adr/0071), through
 * the real gateway with all six services and both wallets checked:
 *
 * - a proof whose upload completed before the expiration date wins, even when media processes it
 *   after the date: the challenge (or the duel's side) waits for the processing, then goes to
 *   review; a processing failure afterwards ends it (expired, or the side failed) and the money
 *   goes back exactly once;
 * - while staff keep a challenge offline its parties cannot act, so its timers stand still:
 *   nothing expires or counts as approved, and when it is back online the time left counts.
 *
 * Media's processing waits for the test (its real ffmpeg tools behind a gate), and the challenge
 * scheduler runs every 200 ms on a clock the test moves forward. That a pass ran at the moved
 * clock is shown by a witness: an open challenge of its own that expires at that clock.
 */

const FUNDS = 2_000;
const REWARD = 500;
const DAY = 86_400_000;
const WEEK = 7 * DAY;

type Outcome = 'process' | 'fail';

/** The real ffmpeg tools; while held, each probe waits for the test to let it process or fail. */
class ProcessingGate {
  private outcome: Outcome | null = 'process';
  private waiting: ((outcome: Outcome) => void)[] = [];
  /** Probes that reached the gate (a processing job that started). */
  arrived = 0;

  hold() {
    this.outcome = null;
  }

  release(outcome: Outcome) {
    this.outcome = outcome;
    for (const resolve of this.waiting.splice(0)) resolve(outcome);
  }

  tools(real: VideoTools = createVideoTools()): VideoTools {
    return {
      ...real,
      probe: async (file, timeoutMs) => {
        this.arrived += 1;
        const outcome =
          this.outcome ?? (await new Promise<Outcome>((resolve) => this.waiting.push(resolve)));
        if (outcome === 'fail') throw new UndecodableVideoError('failed by the test');
        return real.probe(file, timeoutMs);
      },
    };
  }
}

const SIDES = `query ($input: GetChallengeBySlugInput!) { getChallengeBySlug(input: $input) {
  status { identifier } challenge { status sides { performer { id } status } } } }`;
const CREATE_REPORT = `mutation ($input: CreateReportInput!) { createReport(input: $input) {
  status { identifier } report { id } } }`;
const MODERATE = `mutation ($input: ModerateReportInput!) { moderateReport(input: $input) {
  status { identifier } } }`;
const BRING_BACK = `mutation ($input: BringChallengeBackOnlineInput!) {
  bringChallengeBackOnline(input: $input) { status { identifier message } } }`;

// Longer than any one wait (60 s at most): a step that hangs fails with its own message.
describe("a challenge's timers", { timeout: 150_000 }, () => {
  const gate = new ProcessingGate();
  let platform: Platform;
  let clockOffsetMs = 0;
  let moderator: Person;
  let clip: Buffer;

  beforeAll(async () => {
    platform = await startPlatform(
      {},
      { schedulerIntervalMs: 200, schedulerClock: () => new Date(Date.now() + clockOffsetMs) },
      {},
      { videoTools: gate.tools() },
    );
    moderator = await person(platform, { roles: ['user', 'moderator'] });
    clip = await ffmpegVideo('mp4');
  }, 120_000);
  afterAll(async () => {
    await platform?.stop();
  });
  // Each test moves the clock and holds processing for itself only.
  afterEach(() => {
    clockOffsetMs = 0;
    gate.release('process');
  });

  /** Moves the scheduler's clock to `offsetMs` from now, then runs `run`. */
  async function at<T>(offsetMs: number, run: () => Promise<T>): Promise<T> {
    clockOffsetMs = offsetMs;
    return run();
  }

  const free = (cents: number) => ({ availableAmount: cents, freezeAmount: 0 });
  const holding = (cents: number, held: number) => ({
    availableAmount: cents - held,
    freezeAmount: held,
  });

  /** A scheduler pass ran at the current clock: a one-week open challenge of its own expired. */
  async function aPassRan() {
    const [owner, challenged] = await Promise.all([
      person(platform, { cents: FUNDS }),
      person(platform),
    ]);
    const slug = await createChallengeEventually(platform, owner, { challenged, weeks: 1 });
    await statusBecomes(platform, owner, slug, 'expired');
    // Its reward back too: wallet learns of the expiry through an event, and a reconciliation
    // run before that would count the pass's own hold (the grace is zero in tests).
    await walletsBecome(platform, [[owner, free(FUNDS)]]);
  }

  const statusOf = async (slug: string) =>
    (await challengeOf(platform, moderator, slug))?.challenge.status as string;

  async function sidesOf(slug: string) {
    const response = await send(platform, SIDES, { input: { slug } }, moderator);
    return response.data?.getChallengeBySlug.challenge as {
      status: string;
      sides: { performer: { id: string }; status: string }[];
    };
  }

  async function reconciliationIsEmpty() {
    const response = await send(platform, RECONCILIATION, {}, moderator);
    expect(response.data?.escrowReconciliation).toMatchObject({
      holdsWithoutLiveChallenge: [],
      liveChallengesWithoutHold: [],
    });
  }

  /** Waits until media's projection has the challenge in `status` (it learns by event). */
  async function mediaSees(challengeId: string, status: string) {
    await eventually(async () => {
      const row = await platform.media.app.db.challengeAccess.findUnique({
        where: { challengeId },
      });
      if (row?.status !== status) throw new Error(`media sees ${row?.status}`);
    }, 60_000);
  }

  /** Media's projection must know the challenge accepted before it takes the upload. */
  const mediaSeesAccepted = (challengeId: string) => mediaSees(challengeId, 'accepted');

  /** The performer's upload completes through the gateway; its processing waits at the gate. */
  async function uploadCompletes(as: Caller, challengeId: string) {
    const arrived = gate.arrived;
    gate.hold();
    const answer = await uploadVideo(platform.gateway.url, as, challengeId, {
      bytes: clip,
      filename: 'proof.mp4',
      contentType: 'video/mp4',
    });
    expect(answer.data?.createChallengeVideo.status).toMatchObject({ identifier: 'ok' });
    await eventually(async () => {
      if (gate.arrived <= arrived) throw new Error('processing has not started');
    }, 30_000);
  }

  describe('a proof uploaded before the expiration date, processed after it', () => {
    async function soloUploadedThenPastTheDate() {
      const [owner, challenged] = await Promise.all([
        person(platform, { cents: FUNDS }),
        person(platform),
      ]);
      const { id, slug } = await challengeIn(platform, 'accepted', { owner, challenged });
      await mediaSeesAccepted(id);
      await uploadCompletes(challenged, id);
      // Three weeks later: the two-week challenge is past its expiration date.
      await at(3 * WEEK, aPassRan);
      expect(await statusOf(slug)).toBe('accepted');
      await walletsBecome(platform, [
        [owner, holding(FUNDS, REWARD)],
        [challenged, free(0)],
      ]);
      return { owner, challenged, slug };
    }

    it('solo: the challenge waits for the processing and goes to review, no money moves', async () => {
      const { owner, challenged, slug } = await soloUploadedThenPastTheDate();
      gate.release('process');
      await statusBecomes(platform, owner, slug, 'review');
      await aPassRan();
      expect(await statusOf(slug)).toBe('review');
      await walletsBecome(platform, [
        [owner, holding(FUNDS, REWARD)],
        [challenged, free(0)],
      ]);
      await reconciliationIsEmpty();
    });

    it('solo: a processing failure afterwards expires it and gives the reward back once', async () => {
      const { owner, challenged, slug } = await soloUploadedThenPastTheDate();
      gate.release('fail');
      await statusBecomes(platform, owner, slug, 'expired');
      await walletsBecome(platform, [
        [owner, free(FUNDS)],
        [challenged, free(0)],
      ]);
      await aPassRan();
      await walletsBecome(platform, [
        [owner, free(FUNDS)],
        [challenged, free(0)],
      ]);
      await reconciliationIsEmpty();
    });

    async function duelUploadedThenPastTheDate() {
      const [owner, challenged] = await Promise.all([
        person(platform, { cents: FUNDS }),
        person(platform, { cents: FUNDS }),
      ]);
      const { id, slug } = await challengeIn(
        platform,
        'accepted',
        { owner, challenged },
        { challengeType: 'duel' },
      );
      await mediaSeesAccepted(id);
      // Only the challenged user's upload is in; the owner never sends one.
      await uploadCompletes(challenged, id);
      await at(3 * WEEK, aPassRan);
      const duel = await sidesOf(slug);
      expect(duel.status).toBe('accepted');
      expect(duel.sides).toEqual([
        { performer: { id: owner.id }, status: 'failed' },
        { performer: { id: challenged.id }, status: 'awaiting_video' },
      ]);
      await walletsBecome(platform, [
        [owner, holding(FUNDS, REWARD)],
        [challenged, holding(FUNDS, REWARD)],
      ]);
      return { owner, challenged, slug };
    }

    it("duel: the uploader's side waits for the processing and goes to review, then is judged", async () => {
      const { owner, challenged, slug } = await duelUploadedThenPastTheDate();
      gate.release('process');
      await statusBecomes(platform, owner, slug, 'review');
      expect((await sidesOf(slug)).sides[1]).toEqual({
        performer: { id: challenged.id },
        status: 'review',
      });
      await walletsBecome(platform, [
        [owner, holding(FUNDS, REWARD)],
        [challenged, holding(FUNDS, REWARD)],
      ]);
      // The owner approves: the challenged user completed, the owner failed for want of a video.
      expect((await setStatus(platform, owner, slug, 'completed')).status.success).toBe(true);
      await walletsBecome(platform, [
        [owner, free(FUNDS - REWARD)],
        [challenged, free(FUNDS + REWARD)],
      ]);
      await reconciliationIsEmpty();
    });

    // Challenge refuses at its registration when the date has passed; once the scheduler expired
    // the challenge, media's projection knows it too and refuses first. The answer is the same.
    it.each([
      ['as the date passes', false],
      ['once both services know it expired', true],
    ])(
      'an upload that completes after the date does not count (%s): refused, nothing kept, the reward back',
      async (_when, afterTheExpiry) => {
        const [owner, challenged] = await Promise.all([
          person(platform, { cents: FUNDS }),
          person(platform),
        ]);
        const { id, slug } = await challengeIn(platform, 'accepted', { owner, challenged });
        await mediaSeesAccepted(id);
        // A resumable upload started in time ...
        const { created, auth } = await startTusUpload(
          platform.gateway.url,
          challenged,
          id,
          clip.length,
        );
        expect(created.status).toBe(201);
        const location = new URL(created.headers.get('location')!, platform.gateway.url);
        // ... whose last byte arrives three weeks later, past the two-week expiration date.
        clockOffsetMs = 3 * WEEK;
        if (afterTheExpiry) {
          await statusBecomes(platform, owner, slug, 'expired');
          await mediaSees(id, 'expired');
        }
        const completed = await fetch(location, {
          method: 'PATCH',
          headers: {
            ...auth,
            'content-type': 'application/offset+octet-stream',
            'upload-offset': '0',
          },
          body: clip,
        });
        expect(await completed.json()).toMatchObject({
          status: { identifier: 'challenge_expired' },
        });
        expect((await fetch(location, { method: 'HEAD', headers: auth })).status).toBe(404);
        expect(
          await platform.media.app.db.challengeVideo.count({ where: { challengeId: id } }),
        ).toBe(0);
        await statusBecomes(platform, owner, slug, 'expired');
        await walletsBecome(platform, [
          [owner, free(FUNDS)],
          [challenged, free(0)],
        ]);
        await reconciliationIsEmpty();
      },
    );

    it("duel: a processing failure afterwards fails the uploader's side, each stake back once", async () => {
      const { owner, challenged, slug } = await duelUploadedThenPastTheDate();
      gate.release('fail');
      await statusBecomes(platform, owner, slug, 'failed');
      await walletsBecome(platform, [
        [owner, free(FUNDS)],
        [challenged, free(FUNDS)],
      ]);
      await aPassRan();
      await walletsBecome(platform, [
        [owner, free(FUNDS)],
        [challenged, free(FUNDS)],
      ]);
      await reconciliationIsEmpty();
    });
  });

  describe('a challenge staff took offline', () => {
    /** A report, then a moderator takes the challenge offline: its parties no longer see it. */
    async function takeOffline(id: string, slug: string, owner: Person) {
      const reporter = await person(platform);
      const reportId = await eventually(async () => {
        const { data } = await send(
          platform,
          CREATE_REPORT,
          { input: { entityType: 'Challenge', entityId: id, reason: 'harmful' } },
          reporter,
        );
        expect(data?.createReport.status.identifier).toBe('ok');
        return data!.createReport.report.id as string;
      });
      const acted = await send(
        platform,
        MODERATE,
        { input: { reportId, action: 'take_offline', reason: 'Looking into it.' } },
        moderator,
      );
      expect(acted.data?.moderateReport.status.identifier).toBe('ok');
      await eventually(async () => {
        expect((await challengeOf(platform, owner, slug))?.status.identifier).toBe(
          'challenge_not_found',
        );
      });
    }

    async function bringBack(id: string, slug: string, owner: Person) {
      const answer = await send(
        platform,
        BRING_BACK,
        { input: { challengeId: id, reason: 'Nothing wrong with it.' } },
        moderator,
      );
      expect(answer.data?.bringChallengeBackOnline.status.identifier).toBe('ok');
      await eventually(async () => {
        expect((await challengeOf(platform, owner, slug))?.status.identifier).toBe('ok');
      });
    }

    it('in review: the judging window stands still while offline, and the time left counts once back', async () => {
      const [owner, challenged] = await Promise.all([
        person(platform, { cents: FUNDS }),
        person(platform),
      ]);
      const { id, slug } = await challengeIn(platform, 'review', { owner, challenged });
      await takeOffline(id, slug, owner);
      // Eight days offline: past the seven-day judging window, but the owner could not judge.
      await at(8 * DAY, aPassRan);
      expect(await statusOf(slug)).toBe('review');
      await walletsBecome(platform, [
        [owner, holding(FUNDS, REWARD)],
        [challenged, free(0)],
      ]);
      await bringBack(id, slug, owner);
      // Back online after eight days: the owner has the seven days left again.
      await aPassRan();
      expect(await statusOf(slug)).toBe('review');
      await at(8 * DAY + WEEK + 60_000, () => statusBecomes(platform, owner, slug, 'completed'));
      await walletsBecome(platform, [
        [owner, free(FUNDS - REWARD)],
        [challenged, free(REWARD)],
      ]);
      await reconciliationIsEmpty();
    });

    it('accepted: the expiration date stands still while offline, and the time left counts once back', async () => {
      const [owner, challenged] = await Promise.all([
        person(platform, { cents: FUNDS }),
        person(platform),
      ]);
      const { id, slug } = await challengeIn(platform, 'accepted', { owner, challenged });
      await takeOffline(id, slug, owner);
      // Three weeks offline: past the two-week expiration date.
      await at(3 * WEEK, aPassRan);
      expect(await statusOf(slug)).toBe('accepted');
      await walletsBecome(platform, [
        [owner, holding(FUNDS, REWARD)],
        [challenged, free(0)],
      ]);
      await bringBack(id, slug, owner);
      await aPassRan();
      expect(await statusOf(slug)).toBe('accepted');
      // Two weeks after it came back, it expires: the reward goes back once.
      await at(5 * WEEK + DAY, () => statusBecomes(platform, owner, slug, 'expired'));
      await walletsBecome(platform, [
        [owner, free(FUNDS)],
        [challenged, free(0)],
      ]);
      await reconciliationIsEmpty();
    });
  });
});
