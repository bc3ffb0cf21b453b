import { isKnownUser } from '@challenge/challenge/seed';
import { seedUploadedVideo } from '@challenge/media/seed';
import { seedStrayHold } from '@challenge/wallet/seed';
import { randomUUID } from 'node:crypto';
import { eventually, inbox } from '@challenge/testing';
import { type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Browsers, heading, shoot, webDist } from '../support/browser.ts';
import {
  CREATE,
  challengeInput,
  challengeOf,
  person,
  send,
  setStatus,
  statusBecomes,
  walletsBecome,
  type Person,
} from '../support/challenges.ts';
import { startPlatform, type Platform } from '../support/platform.ts';
import { ffmpegVideo } from '../support/uploads.ts';

const FUNDS = 2_000;
const REWARD = 500;
const CASES = `{ paginatedListOfRefereeChallenges(page: 1, itemsPerPage: 100) { status { identifier } items { id challenge { id } } } }`;
const VIDEOS = `query ($input: GetChallengeBySlugInput!) {
  getChallengeBySlug(input: $input) { status { identifier } challenge { challengeVideos { videoSource } } }
}`;

/**
 * Issue 13's browser test, in Debian's Chromium against the built web app served by the gateway
 * in front of all six services. A user reports a public challenge from its page; a moderator
 * takes it offline in the staff console; a visitor no longer finds it; the reporter sees the
 * outcome under My reports and gets the mail. A referee decides a disputed challenge in the
 * console and the challenged person is paid. Screenshots at phone and desktop width under
 * e2e/test-results/screenshots/ (moderation-*).
 */
describe('moderation in the browser', () => {
  let platform: Platform;
  let browsers: Browsers;

  beforeAll(async () => {
    platform = await startPlatform({}, {}, { webDist });
    browsers = await Browsers.launch(platform.origin);
  }, 120_000);
  afterAll(async () => {
    await browsers?.close();
    await platform?.stop();
  });

  /** An adult whom challenge's projection knows (so a challenge for them can be created). */
  async function adult(options: Parameters<typeof person>[1] = {}): Promise<Person> {
    const who = await person(platform, options);
    await eventually(async () => {
      if (!(await isKnownUser(platform.challenge.app.db, who.id)))
        throw new Error(`challenge does not know ${who.username} yet`);
    });
    return who;
  }

  /**
   * A public challenge of `owner` for `challenged`, accepted, with a real proof video through
   * media's pipeline (ffmpeg), so in review: the page and the console show a playable video.
   */
  async function inReview(owner: Person, challenged: Person, name: string) {
    const slug = await eventually(async () => {
      const input = { ...challengeInput({ challenged, reward: REWARD }), challengeName: name };
      const { data } = await send(platform, CREATE, { input }, owner);
      expect(data?.createChallenge.status.identifier).toBe('ok');
      return data!.createChallenge.challenges[0].slug as string;
    });
    const { id } = await statusBecomes(platform, owner, slug, 'open');
    const accepted = await setStatus(platform, challenged, slug, 'accepted');
    expect(accepted.status.identifier).toBe('ok');
    await seedUploadedVideo(platform.media.app, {
      challengeId: id,
      uploaderId: challenged.id,
      bytes: await ffmpegVideo('mp4', '360x640'),
      extension: 'mp4',
    });
    await statusBecomes(platform, owner, slug, 'review');
    return { id, slug };
  }

  const detailUrl = (slug: string) =>
    `${platform.origin}/challenge/${encodeURIComponent(slug)}/detail`;

  it('a user reports a challenge, a moderator takes it offline, the reporter sees the outcome', async () => {
    const [owner, challenged, reporter, moderator] = await Promise.all([
      adult({ cents: FUNDS }),
      adult(),
      adult(),
      adult({ roles: ['user', 'moderator'] }),
    ]);
    const name = `Climb the town hall ${owner.username.slice(-4)}`;
    const { id, slug } = await inReview(owner, challenged, name);
    // Moderation has heard of the challenge (a report about unknown content is refused).
    await eventually(async () => {
      expect(
        await platform.moderation.app.db.knownChallenge.findUnique({ where: { id } }),
      ).not.toBeNull();
    });
    const visitorVideo = await send(platform, VIDEOS, { input: { slug } });
    expect(visitorVideo.data?.getChallengeBySlug.challenge.challengeVideos).toHaveLength(1);
    // The visitor's link works now; it must stop working once the challenge is offline (ADR 65).
    const visitorLink: string =
      visitorVideo.data?.getChallengeBySlug.challenge.challengeVideos[0].videoSource;
    expect((await fetch(visitorLink)).status).toBe(200);

    // The reporter reports it from its page: a reason that needs details, and the details.
    const reporterPage = await browsers.pageOf(reporter);
    await reporterPage.goto(detailUrl(slug));
    await heading(reporterPage, name).waitFor();
    await reporterPage.getByRole('button', { name: 'Report challenge' }).click();
    const dialog = reporterPage.getByRole('dialog', { name: `Report “${name}”` });
    await dialog.getByLabel('Reason').selectOption('misleading');
    await dialog
      .getByLabel('Details (required for this reason)')
      .fill('The video is an old clip from the news, not this person.');
    await shoot(reporterPage, 'moderation-report-dialog', { fullPage: false });
    await dialog.getByRole('button', { name: 'Send report' }).click();
    await dialog.getByText('Report sent').waitFor();
    await shoot(reporterPage, 'moderation-report-sent', { fullPage: false });
    await dialog.getByRole('link', { name: 'See my reports' }).click();
    await reporterPage.getByRole('heading', { level: 2, name: 'My reports' }).waitFor();
    const mine = reporterPage.getByRole('list', { name: 'Your reports' }).getByRole('listitem');
    await mine.filter({ hasText: name }).getByText('Pending').waitFor();
    await shoot(reporterPage, 'moderation-my-reports-pending');

    // The moderator opens the console, the reports tab, and takes the challenge offline.
    const moderatorPage = await browsers.pageOf(moderator);
    await moderatorPage.goto(`${platform.origin}/moderator`);
    await heading(moderatorPage, 'Moderator dashboard').waitFor();
    await moderatorPage.getByRole('tab', { name: 'Reports' }).click();
    const takeOffline = moderatorPage.getByRole('button', { name: `Take offline: ${name}` });
    await takeOffline.waitFor();
    await moderatorPage.getByText('The video is an old clip from the news').waitFor();
    await shoot(moderatorPage, 'moderation-console-reports');
    await takeOffline.click();
    const confirm = moderatorPage.getByRole('dialog', { name: `Take “${name}” offline` });
    await confirm
      .getByLabel('Reason (for the audit log)')
      .fill('Misleading proof: the clip is from a news broadcast.');
    await shoot(moderatorPage, 'moderation-console-take-offline', { fullPage: false });
    await confirm.getByRole('button', { name: 'Take offline' }).click();
    await moderatorPage.getByText(`“${name}” is offline: only staff can still see it.`).waitFor();
    await shoot(moderatorPage, 'moderation-console-taken-offline');

    // A visitor no longer finds it, nor its video; staff still do.
    await eventually(async () => {
      expect((await challengeOf(platform, undefined as never, slug))?.status.identifier).toBe(
        'challenge_not_found',
      );
    });
    const visitorPage = await browsers.pageOf();
    await visitorPage.goto(detailUrl(slug));
    await heading(visitorPage, 'Challenge not found').waitFor();
    await shoot(visitorPage, 'moderation-visitor-not-found');
    const hidden = await send(platform, VIDEOS, { input: { slug } });
    expect(hidden.data?.getChallengeBySlug.status.identifier).toBe('challenge_not_found');
    expect(hidden.data?.getChallengeBySlug.challenge).toBeNull();
    const staff = await send(platform, VIDEOS, { input: { slug } }, moderator);
    expect(staff.data?.getChallengeBySlug.challenge.challengeVideos).toHaveLength(1);
    // The link the visitor got before is refused (media moved the video); staff's new one plays.
    await eventually(async () => {
      expect([403, 404]).toContain((await fetch(visitorLink)).status);
    }, 30_000);
    const staffLink: string = (await send(platform, VIDEOS, { input: { slug } }, moderator)).data
      ?.getChallengeBySlug.challenge.challengeVideos[0].videoSource;
    expect(staffLink).not.toBe(visitorLink);
    expect((await fetch(staffLink)).status).toBe(200);

    // The reporter sees the outcome, and what was done.
    await reporterPage.reload();
    const card = mine.filter({ hasText: name });
    await card.getByText('Action taken').waitFor();
    await card.getByText('The challenge was taken offline.').waitFor();
    expect(await card.getByRole('link', { name }).count()).toBe(0);
    await shoot(reporterPage, 'moderation-my-reports-actioned');
    // The same page in Dutch.
    await reporterPage.evaluate("localStorage.setItem('language', 'nl')");
    await reporterPage.reload();
    await reporterPage.locator('html[lang="nl"]').waitFor({ state: 'attached' });
    await reporterPage.getByRole('heading', { level: 2, name: 'Mijn meldingen' }).waitFor();
    await reporterPage.getByText('De challenge is offline gehaald.').waitFor();
    await shoot(reporterPage, 'moderation-nl-my-reports');

    // And the report-outcome mail.
    const mail = await eventually(async () => {
      const found = (await inbox(reporter.email)).find(
        (message) => message.subject === 'Your report has been handled',
      );
      if (!found) throw new Error('no report mail yet');
      return found;
    }, 30_000);
    expect(mail.text).toContain('It broke our rules and has been taken offline.');
  }, 180_000);

  it('a referee approves a disputed challenge with a reason: the challenged person is paid', async () => {
    const [owner, challenged, referee] = await Promise.all([
      adult({ cents: FUNDS }),
      adult(),
      adult({ roles: ['user', 'referee'] }),
    ]);
    const name = `Sing in the station ${owner.username.slice(-4)}`;
    const { id, slug } = await inReview(owner, challenged, name);
    const rejected = await setStatus(
      platform,
      owner,
      slug,
      'referee',
      'Nobody can hear the phrase.',
    );
    expect(rejected.status.identifier).toBe('ok');
    await eventually(async () => {
      const { data } = await send(platform, CASES, {}, referee);
      expect(
        data?.paginatedListOfRefereeChallenges.items.map(
          (item: { challenge: { id: string } }) => item.challenge.id,
        ),
      ).toContain(id);
    });

    const page: Page = await browsers.pageOf(referee);
    await page.goto(`${platform.origin}/moderator`);
    await heading(page, 'Referee dashboard').waitFor();
    // A referee reaches the disputes only: the open cases and the refused videos (ADR 57).
    const tabs = page.getByRole('tab');
    await page.getByRole('tab', { name: 'Referee' }).click();
    expect(await tabs.allTextContents()).toEqual(['Referee', 'Refused videos']);
    const caseCard = page.getByRole('listitem').filter({
      has: page.getByRole('heading', { name }),
    });
    await caseCard.getByText('Nobody can hear the phrase.').waitFor();
    await caseCard.getByLabel(`Proof video of @${challenged.username} in ${name}`).waitFor();
    await shoot(page, 'moderation-console-referee');
    await caseCard.getByRole('button', { name: `Approve: ${name}` }).click();
    const dialog = page.getByRole('dialog', { name: `Approve the proof of “${name}”` });
    await dialog
      .getByLabel('Your reason (the parties see it)')
      .fill('The phrase is said clearly at the end of the video.');
    await shoot(page, 'moderation-referee-decision', { fullPage: false });
    await dialog.getByRole('button', { name: 'Approve' }).click();
    await page.getByText(`“${name}” is approved.`).waitFor();
    await shoot(page, 'moderation-referee-decided');

    // The money follows the decision: the reward leaves escrow for the challenged person.
    await walletsBecome(platform, [
      [owner, { availableAmount: FUNDS - REWARD, freezeAmount: 0 }],
      [challenged, { availableAmount: REWARD, freezeAmount: 0 }],
    ]);
    expect((await challengeOf(platform, owner, slug))?.challenge.status).toBe('completed');
  }, 180_000);

  it('an admin gives back money held for a challenge nobody knows, with a reason the audit log keeps', async () => {
    const [staker, admin] = await Promise.all([
      adult(),
      adult({ roles: ['user', 'moderator', 'admin'] }),
    ]);
    // A hold whose creation was given up without its release (ADR 72): wallet reports it.
    const challengeId = randomUUID();
    await seedStrayHold(platform.wallet.app.db, challengeId, staker.id);
    await walletsBecome(platform, [[staker, { availableAmount: 0, freezeAmount: 100 }]]);

    const page = await browsers.pageOf(admin);
    await page.goto(`${platform.origin}/moderator?tab=money`);
    const row = page.getByRole('row').filter({ hasText: challengeId });
    await row.getByText('The challenge is unknown').waitFor();
    await shoot(page, 'moderation-money-stray-hold');
    await row
      .getByRole('button', { name: `Resolve the €1.00 held from @${staker.username}` })
      .click();
    const dialog = page.getByRole('dialog', { name: 'Resolve held money' });
    await dialog
      .getByRole('status')
      .getByText(`€1.00 goes back to @${staker.username}'s available balance.`, { exact: false })
      .waitFor();
    await dialog
      .getByLabel('Reason (kept in the audit log)')
      .fill('Its creation failed: ticket 42');
    await shoot(page, 'moderation-money-resolve-dialog', { fullPage: false });
    await dialog.getByRole('button', { name: 'Give back €1.00' }).click();
    await page.getByText(`€1.00 went back to @${staker.username}.`).first().waitFor();
    await page.getByText('All holds match live challenges.').waitFor();
    await shoot(page, 'moderation-money-resolved');
    await walletsBecome(platform, [[staker, { availableAmount: 100, freezeAmount: 0 }]]);

    // The audit log (moderation, from wallet's EscrowHoldResolved) names the admin and the reason.
    await page.getByRole('tab', { name: 'Audit log' }).click();
    const entry = page.getByRole('row').filter({ hasText: 'Gave held money back to its staker' });
    await entry.getByText('Its creation failed: ticket 42').waitFor({ timeout: 20_000 });
    await shoot(page, 'moderation-audit-escrow');

    // The same dialog in Dutch, for another stray hold.
    const another = randomUUID();
    const second = await adult();
    await seedStrayHold(platform.wallet.app.db, another, second.id);
    await page.evaluate("localStorage.setItem('language', 'nl')");
    await page.goto(`${platform.origin}/moderator?tab=money`);
    const nlRow = page.getByRole('row').filter({ hasText: another });
    await nlRow.getByText('De challenge is onbekend').waitFor();
    await nlRow.getByRole('button', { name: /^Afhandelen: / }).click();
    const nlDialog = page.getByRole('dialog', { name: 'Gereserveerd geld afhandelen' });
    // Submitted without a reason: the dialog says so and nothing moves.
    await nlDialog.getByRole('button', { name: /teruggeven/ }).click();
    await nlDialog.getByText('Geef aan waarom het geld daarheen gaat.').waitFor();
    await shoot(page, 'moderation-nl-money-resolve-dialog', { fullPage: false });
    await nlDialog.getByLabel('Reden (komt in het auditlogboek)').fill('Aanmaken mislukt');
    await nlDialog.getByRole('button', { name: /teruggeven/ }).click();
    await page.getByText('Alle reserveringen horen bij lopende challenges.').waitFor();
    await walletsBecome(platform, [[second, { availableAmount: 100, freezeAmount: 0 }]]);
  }, 180_000);
  it("shows a duel's two disputed sides as two cases, each with its performer, its video and the accepted description (ADR 70)", async () => {
    const [owner, challenged, referee] = await Promise.all([
      adult({ cents: FUNDS }),
      adult({ cents: FUNDS }),
      adult({ roles: ['user', 'referee'] }),
    ]);
    const name = `Juggle on a bike ${owner.username.slice(-4)}`;
    const slug = await eventually(async () => {
      const input = {
        ...challengeInput({ challenged, reward: REWARD, challengeType: 'duel' }),
        challengeName: name,
      };
      const { data } = await send(platform, CREATE, { input }, owner);
      expect(data?.createChallenge.status.identifier).toBe('ok');
      return data!.createChallenge.challenges[0].slug as string;
    });
    const { id } = await statusBecomes(platform, owner, slug, 'open');
    expect((await setStatus(platform, challenged, slug, 'accepted')).status.identifier).toBe('ok');
    // A real video per side, through media's pipeline.
    for (const uploader of [owner, challenged]) {
      await seedUploadedVideo(platform.media.app, {
        challengeId: id,
        uploaderId: uploader.id,
        bytes: await ffmpegVideo('mp4', '360x640'),
        extension: 'mp4',
      });
    }
    await eventually(async () => {
      const { data } = await send(platform, VIDEOS, { input: { slug } }, owner);
      expect(data?.getChallengeBySlug.challenge.challengeVideos).toHaveLength(2);
    }, 120_000);
    await statusBecomes(platform, owner, slug, 'review');
    await eventually(async () =>
      expect(
        (await setStatus(platform, owner, slug, 'referee', 'Both feet on the ground.')).status
          .identifier,
      ).toBe('ok'),
    );
    await eventually(async () =>
      expect(
        (await setStatus(platform, challenged, slug, 'referee', 'Two balls, not three.')).status
          .identifier,
      ).toBe('ok'),
    );
    await eventually(async () => {
      const { data } = await send(platform, CASES, {}, referee);
      expect(
        data?.paginatedListOfRefereeChallenges.items.filter(
          (item: { challenge: { id: string } }) => item.challenge.id === id,
        ),
      ).toHaveLength(2);
    });

    for (const language of ['en', 'nl'] as const) {
      const page: Page = await browsers.pageOf(referee, { language });
      await page.goto(`${platform.origin}/moderator?tab=referee`);
      const cards = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name }) });
      await cards.first().waitFor();
      expect(await cards.count()).toBe(2);
      const performance = language === 'en' ? 'Performance of' : 'Uitvoering van';
      const facts = await Promise.all(
        [0, 1].map(async (index) => {
          const card = cards.nth(index);
          await card.locator('video').waitFor();
          return {
            performer: await card
              .locator('dt', { hasText: performance })
              .locator('+ dd')
              .textContent(),
            video: await card.locator('video').getAttribute('aria-label'),
          };
        }),
      );
      const role = language === 'en' ? ['owner', 'challenged'] : ['eigenaar', 'uitgedaagde'];
      expect(facts.map((fact) => fact.performer).sort()).toEqual(
        [`@${owner.username} (${role[0]})`, `@${challenged.username} (${role[1]})`].sort(),
      );
      // Each card plays its own side's video.
      for (const fact of facts) expect(fact.video).toContain(fact.performer!.split(' ')[0]);
      await cards.first().getByText('For a whole minute, outside.').waitFor();
      await shoot(page, `moderation-duel-referee-${language}`);
    }
  }, 300_000);
});
