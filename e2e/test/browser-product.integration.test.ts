import { isKnownUser } from '@challenge/challenge/seed';
import { eventually, tokenFor } from '@challenge/testing';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Browsers, heading, shoot, webDist } from '../support/browser.ts';
import {
  challengeIn,
  createChallengeEventually,
  person,
  setStatus,
  statusBecomes,
  type Person,
} from '../support/challenges.ts';
import { startPlatform, type Platform } from '../support/platform.ts';

/**
 * Issue 22, point 14's smaller gaps, in Debian's Chromium against the built web app behind the
 * gateway and all six services: a challenge or profile that does not exist answers 404 with a
 * title that says so; the dashboard's completed tab and the activity log's outcomes; the upload
 * dialog's file button; the BIC optional for an IBAN of the EEA; the intro video's captions.
 * English and Dutch, axe and screenshots at phone and desktop width (shoot).
 */
describe('the smaller product gaps in the browser', () => {
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
  async function adult(cents?: number): Promise<Person> {
    const who = await person(platform, cents ? { cents } : {});
    await eventually(async () => {
      if (!(await isKnownUser(platform.challenge.app.db, who.id)))
        throw new Error(`challenge does not know ${who.username} yet`);
    });
    return who;
  }

  const url = (path: string) => `${platform.origin}${path}`;
  /** The HTTP status of a page as a browser's navigation gets it (no Origin, maybe a session). */
  async function statusOf(path: string, who?: Person): Promise<number> {
    const cookie = who ? `session=${await tokenFor({ id: who.id })}` : '';
    const response = await fetch(url(path), { headers: cookie ? { cookie } : {} });
    await response.arrayBuffer();
    return response.status;
  }

  it('a challenge or profile that does not exist answers 404, and its page says so in the title', async () => {
    const [owner, challenged] = await Promise.all([adult(10_000), adult()]);
    const { slug } = await challengeIn(platform, 'open', { owner, challenged });
    const hidden = await createChallengeEventually(platform, owner, {
      challenged,
      visibility: 'private',
    });
    await statusBecomes(platform, owner, hidden, 'open');

    expect(await statusOf(`/challenge/${slug}/detail`)).toBe(200);
    expect(await statusOf('/challenge/no-such-thing-ab12/detail')).toBe(404);
    expect(await statusOf('/challenge/Not%20A%20Slug/detail')).toBe(404);
    // Private: not there for a visitor, there for its owner.
    expect(await statusOf(`/challenge/${hidden}/detail`)).toBe(404);
    expect(await statusOf(`/challenge/${hidden}/detail`, owner)).toBe(200);
    expect(await statusOf(`/profile/${owner.username}/ongoing-challenges`)).toBe(200);
    expect(await statusOf('/profile/nobody_by_that_name')).toBe(404);

    for (const language of ['en', 'nl'] as const) {
      const page = await browsers.pageOf(undefined, { language });
      const answer = await page.goto(url('/challenge/no-such-thing-ab12/detail'));
      expect(answer?.status()).toBe(404);
      const title = language === 'en' ? 'Challenge not found' : 'Challenge niet gevonden';
      await heading(page, title).waitFor();
      await eventually(async () => expect(await page.title()).toBe(`${title} · Challenge`));
      await shoot(page, `${language}-challenge-not-found`);
    }
  }, 180_000);

  it("the dashboard's completed tab and the approving owner's activity outcome", async () => {
    const [owner, challenged] = await Promise.all([adult(10_000), adult()]);
    const { slug } = await challengeIn(platform, 'review', { owner, challenged });
    const approved = await setStatus(platform, owner, slug, 'completed');
    expect(approved.status).toMatchObject({ success: true });
    await statusBecomes(platform, owner, slug, 'completed');

    const page = await browsers.pageOf(owner);
    await page.goto(url('/challenge-dashboard'));
    await page.getByRole('link', { name: 'Completed', exact: true }).click();
    const completed = page.getByRole('list', { name: 'Completed', exact: true });
    await completed.getByRole('link', { name: 'Juggle three oranges' }).waitFor();
    await shoot(page, 'dashboard-completed');

    // The owner approved: the outcome is in the owner's log too, marked as completed.
    await page.getByRole('link', { name: 'Activity', exact: true }).click();
    const outcome = page
      .getByRole('region', { name: 'Activity', exact: true })
      .getByRole('listitem')
      .filter({ hasText: /Challenge with .+ completed/ });
    // The log is a projection of the challenge's events: reloaded until the outcome is in.
    const log = page.getByRole('region', { name: 'Activity', exact: true });
    await eventually(async () => {
      await log.or(page.getByText('Nothing has happened in your challenges yet.')).waitFor();
      if ((await outcome.count()) > 0) return;
      await page.reload();
      throw new Error(`no completed entry yet: ${await page.locator('main').textContent()}`);
    }, 30_000);
    expect(await outcome.first().locator('[data-status="completed"]').textContent()).toBe(
      'Completed',
    );
    await shoot(page, 'activity-outcome-completed');

    const dutch = await browsers.pageOf(challenged, { language: 'nl' });
    await dutch.goto(url('/challenge-dashboard?tab=completed'));
    await dutch
      .getByRole('list', { name: 'Voltooid', exact: true })
      .getByRole('link', { name: 'Juggle three oranges' })
      .waitFor();
    await shoot(dutch, 'nl-dashboard-completed');
    await dutch.getByRole('link', { name: 'Activiteit', exact: true }).click();
    await dutch.locator('[data-status="completed"]').first().waitFor();
    await shoot(dutch, 'nl-activity-outcome-completed');
  }, 180_000);

  it('the upload dialog picks the file with a button like the others and names it', async () => {
    const [owner, challenged] = await Promise.all([adult(10_000), adult()]);
    const { slug } = await challengeIn(platform, 'accepted', { owner, challenged });
    for (const language of ['en', 'nl'] as const) {
      const en = language === 'en';
      const page = await browsers.pageOf(challenged, { language });
      await page.goto(url(`/challenge/${slug}/detail`));
      await page.getByRole('button', { name: en ? 'Upload video' : 'Video uploaden' }).click();
      const dialog = page.getByRole('dialog', {
        name: en ? 'Upload your proof video' : 'Upload je bewijsvideo',
      });
      const choose = dialog.getByRole('button', { name: en ? 'Choose a video' : 'Kies een video' });
      await choose.waitFor();
      // The browser's own input is out of sight; the button opens it.
      expect(await dialog.getByTestId('video-file').isVisible()).toBe(false);
      const [chooser] = await Promise.all([page.waitForEvent('filechooser'), choose.click()]);
      await chooser.setFiles({
        name: 'my-proof.mp4',
        mimeType: 'video/mp4',
        buffer: Buffer.alloc(2048),
      });
      await dialog.getByText('my-proof.mp4').waitFor();
      await shoot(page, `${language}-upload-picker`, { fullPage: false });
    }
  }, 180_000);

  /** Fills the payout details form; `bic` left out leaves the field empty. */
  async function fillPayoutDetails(page: Page, iban: string, bic = '') {
    const form = page.getByRole('form', { name: 'Payout details' });
    await form.getByLabel('Account holder name').fill('Sam de Vries');
    await form.getByLabel('IBAN').fill(iban);
    await form.getByLabel(/^BIC/).fill(bic);
    await form.getByLabel('Street and house number').fill('Damrak 1');
    await form.getByLabel('Postal code').fill('1012 LG');
    await form.getByLabel('City').fill('Amsterdam');
    await form.getByLabel('Country').selectOption('NL');
    await form.getByLabel('Phone number').fill('+31 6 12345678');
    return form;
  }

  it('payout details: the BIC is optional for an IBAN of the EEA and asked for outside it', async () => {
    const member = await adult();
    const page = await browsers.pageOf(member);
    await page.goto(url('/settings/edit-payments'));
    const form = await fillPayoutDetails(page, 'CH93 0076 2011 6238 5295 7');
    await form.getByRole('button', { name: 'Save payout details' }).click();
    expect(await form.getByLabel('BIC', { exact: true }).getAttribute('aria-invalid')).toBe('true');
    await shoot(page, 'payout-details-bic-needed');

    await form.getByLabel('IBAN').fill('NL91 ABNA 0417 1643 00');
    await form.getByLabel('BIC (optional)').waitFor();
    await form.getByRole('button', { name: 'Save payout details' }).click();
    await page.getByText("You're ready for payouts").waitFor();
    await shoot(page, 'payout-details-bic-optional');

    const dutch = await browsers.pageOf(await adult(), { language: 'nl' });
    await dutch.goto(url('/settings/edit-payments'));
    const dutchForm = dutch.getByRole('form', { name: 'Uitbetaalgegevens' });
    await dutchForm.getByLabel('IBAN').fill('NL91 ABNA 0417 1643 00');
    await dutchForm.getByLabel('BIC (optioneel)').waitFor();
    await shoot(dutch, 'nl-payout-details-bic-optional');
  }, 180_000);

  /** What the test reads of a `<video>` in the page (the e2e workspace has no DOM types). */
  interface PlayingVideo {
    play(): Promise<void>;
    pause(): void;
    textTracks: Iterable<{ mode: string; activeCues: ArrayLike<{ text?: string }> | null }>;
  }

  it('the intro video plays its explainer with captions in the interface language', async () => {
    for (const [language, first] of [
      ['en', '1. Create: dare a friend to do something on video.'],
      ['nl', '1. Maken: daag een vriend uit om iets op video te doen.'],
    ] as const) {
      const page = await browsers.pageOf(undefined, { language, introSeen: false });
      await page.goto(url('/'));
      const dialog = page.getByRole('dialog', {
        name: language === 'en' ? 'How it works' : 'Zo werkt het',
      });
      const video = dialog.locator('video');
      await video.waitFor();
      await video.evaluate((element) => (element as unknown as PlayingVideo).play());
      // The track the browser shows, loaded from the site (CSP, type) and cued at the start.
      const cue = await eventually(async () => {
        const text = await video.evaluate((element) => {
          const tracks = [...(element as unknown as PlayingVideo).textTracks];
          return tracks.find((track) => track.mode === 'showing')?.activeCues?.[0]?.text ?? null;
        });
        if (!text) throw new Error('no caption showing yet');
        return text;
      }, 20_000);
      expect(cue).toBe(first);
      await video.evaluate((element) => (element as unknown as PlayingVideo).pause());
      await shoot(page, `${language}-intro-video-captions`, { fullPage: false });
    }
  }, 120_000);
});
