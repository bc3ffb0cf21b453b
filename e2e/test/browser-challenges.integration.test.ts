import { isKnownUser } from '@challenge/challenge/seed';
import { eventually } from '@challenge/testing';
import { type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Browsers, heading, shoot, webDist } from '../support/browser.ts';
import {
  createChallengeEventually,
  person,
  send,
  walletsBecome,
  type Person,
} from '../support/challenges.ts';
import { startPlatform, type Platform } from '../support/platform.ts';

const FUNDS = 2_000;

/**
 * Issue 11's browser test: two people in two browser contexts of Debian's Chromium against the
 * built web app served by the gateway in front of all six services. One creates a challenge for
 * the other through both create steps, the other accepts it (and sees the proof phrase) or
 * declines it with a reason; both dashboards show it. Screenshots at phone and desktop width of
 * every page on the way are saved as test artefacts under e2e/test-results/screenshots/.
 */
describe('challenges in the browser', () => {
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

  /** A logged-in browser of its own for `who` (its own cookies and storage), in `language`. */
  const browserOf = (who: Person, language: 'en' | 'nl' = 'en'): Promise<Page> =>
    browsers.pageOf(who, { language });

  it('one creates a challenge through both steps, the other accepts it, both dashboards show it', async () => {
    const [owner, challenged] = await Promise.all([adult(FUNDS), adult()]);
    const name = `Juggle three oranges ${owner.username.slice(-4)}`;
    const ownerPage = await browserOf(owner);

    // Step 1 "Send your Challenge": the friend by username, the title and the description.
    await ownerPage.goto(`${platform.origin}/challenge/create/step-1`);
    await heading(ownerPage, 'Send your Challenge').waitFor();
    await ownerPage.getByLabel('Username', { exact: true }).fill(challenged.username);
    await ownerPage.getByLabel('Title', { exact: true }).fill(name);
    await ownerPage
      .getByLabel('Description', { exact: true })
      .fill('For a whole minute, outside, without dropping one.');
    await shoot(ownerPage, 'create-step-1');
    await ownerPage.getByRole('button', { name: 'Next: details' }).click();

    // Step 2 "Challenge Details": reward, a tag, the credit confirmation.
    await heading(ownerPage, 'Challenge Details').waitFor();
    await expect(ownerPage.getByText(`for @${challenged.username}`).isVisible()).resolves.toBe(
      true,
    );
    await ownerPage.getByLabel('Reward in euros').fill('5');
    const tag = ownerPage.getByLabel('Tags', { exact: true });
    await tag.fill('juggling');
    await tag.press('Enter');
    await ownerPage.getByRole('button', { name: 'Remove tag juggling' }).waitFor();
    await ownerPage.getByRole('checkbox', { name: /I accept that €5\.00 is taken/ }).check();
    await shoot(ownerPage, 'create-step-2');
    await ownerPage.getByRole('button', { name: 'Send challenge' }).click();

    await heading(ownerPage, 'Your challenge is on its way').waitFor({ timeout: 20_000 });
    await shoot(ownerPage, 'create-sent');
    await ownerPage.getByRole('link', { name }).click();
    await heading(ownerPage, name).waitFor();
    const slug = decodeURIComponent(new URL(ownerPage.url()).pathname.split('/')[2] ?? '');
    await ownerPage.getByText(`Waiting for`).first().waitFor();
    await shoot(ownerPage, 'detail-owner-open');
    // The reward is held in the owner's wallet.
    await walletsBecome(platform, [
      [owner, { availableAmount: FUNDS - 500, freezeAmount: 500 }],
      [challenged, { availableAmount: 0, freezeAmount: 0 }],
    ]);

    // The challenged person finds it among their requests, opens it and accepts it.
    const challengedPage = await browserOf(challenged);
    await challengedPage.goto(`${platform.origin}/challenge-dashboard?tab=requests`);
    const request = challengedPage.getByRole('list', { name: 'Requests' }).getByRole('link', {
      name,
    });
    await request.waitFor();
    await shoot(challengedPage, 'dashboard-challenged-requests');
    await request.click();
    await heading(challengedPage, name).waitFor();
    await shoot(challengedPage, 'detail-challenged-open');
    await challengedPage.getByRole('button', { name: 'Accept challenge' }).click();
    const phrase = challengedPage.getByRole('region', { name: 'Proof phrase' });
    await phrase.waitFor();
    const accepted = await challengeAs(challenged, slug);
    expect(accepted.status).toBe('accepted');
    const proofPhrase = accepted.proofPhrase ?? '';
    expect(proofPhrase).toMatch(/\S/);
    expect(await phrase.textContent()).toContain(proofPhrase);
    await shoot(challengedPage, 'detail-challenged-accepted');

    // Both dashboards show it as ongoing, accepted.
    await challengedPage.goto(`${platform.origin}/challenge-dashboard`);
    const challengedCard = challengedPage
      .getByRole('list', { name: 'Ongoing' })
      .getByRole('listitem')
      .filter({ hasText: name });
    await challengedCard.getByText('Accepted').waitFor();
    await shoot(challengedPage, 'dashboard-challenged-ongoing');

    await ownerPage.goto(`${platform.origin}/challenge-dashboard`);
    const ownerCard = ownerPage
      .getByRole('list', { name: 'Ongoing' })
      .getByRole('listitem')
      .filter({ hasText: name });
    await ownerCard.getByText('Accepted').waitFor();
    await shoot(ownerPage, 'dashboard-owner-ongoing');
    await ownerCard.getByRole('link', { name }).click();
    // The owner sees the proof phrase too (to check the video against it).
    await ownerPage.getByRole('region', { name: 'Proof phrase' }).getByText(proofPhrase).waitFor();
    // Accepted: the description is what was agreed (ADR 77): no Edit, only the visibility.
    await ownerPage.getByRole('button', { name: 'Make private' }).waitFor();
    expect(await ownerPage.getByRole('button', { name: 'Edit', exact: true }).count()).toBe(0);
    await shoot(ownerPage, 'detail-owner-accepted');

    // The same pages in Dutch, for the eye (a switch of language is kept across loads).
    await challengedPage.evaluate("localStorage.setItem('language', 'nl')");
    await challengedPage.goto(`${platform.origin}/challenge/${encodeURIComponent(slug)}/detail`);
    await challengedPage.locator('html[lang="nl"]').waitFor({ state: 'attached' });
    await challengedPage
      .getByRole('region', { name: 'Bewijszin' })
      .getByText(proofPhrase)
      .waitFor();
    await shoot(challengedPage, 'nl-detail-challenged-accepted');
    await challengedPage.goto(`${platform.origin}/challenge-dashboard`);
    await challengedPage.getByRole('link', { name }).waitFor();
    await shoot(challengedPage, 'nl-dashboard-challenged-ongoing');
  }, 300_000);

  it('the challenged person declines with a reason: the owner sees it and has the reward back', async () => {
    const [owner, challenged] = await Promise.all([adult(FUNDS), adult()]);
    const slug = await createChallengeEventually(platform, owner, { challenged, reward: 700 });
    const detail = `${platform.origin}/challenge/${encodeURIComponent(slug)}/detail`;
    const challengedPage = await browserOf(challenged);

    await challengedPage.goto(detail);
    await challengedPage.getByRole('button', { name: 'Decline' }).click();
    const dialog = challengedPage.getByRole('dialog', { name: 'Decline the challenge' });
    // No reason: refused in the dialog, nothing sent.
    await dialog.getByRole('button', { name: 'Decline' }).click();
    await dialog.getByText('Please provide a reason').waitFor();
    await dialog.getByLabel('Reason').fill('I cannot juggle, not even two.');
    await shoot(challengedPage, 'decline-dialog', { fullPage: false });
    await dialog.getByRole('button', { name: 'Decline' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await challengedPage.getByText('I cannot juggle, not even two.').waitFor();
    await shoot(challengedPage, 'detail-challenged-declined');
    expect(await challengeAs(owner, slug)).toMatchObject({
      status: 'refused',
      reason: 'I cannot juggle, not even two.',
    });
    await walletsBecome(platform, [
      [owner, { availableAmount: FUNDS, freezeAmount: 0 }],
      [challenged, { availableAmount: 0, freezeAmount: 0 }],
    ]);

    // The owner reads the reason on the page; the dashboard no longer lists it as running.
    const ownerPage = await browserOf(owner);
    await ownerPage.goto(detail);
    await ownerPage.getByText('Reason for declining').waitFor();
    await ownerPage.getByText('I cannot juggle, not even two.').waitFor();
    await shoot(ownerPage, 'detail-owner-declined');
    await ownerPage.goto(`${platform.origin}/challenge-dashboard`);
    await ownerPage.getByRole('heading', { name: 'No challenges running' }).waitFor();
    await shoot(ownerPage, 'dashboard-owner-empty');
  }, 180_000);

  /** The challenge through the API, as `as` sees it. */
  async function challengeAs(as: Person, slug: string) {
    const response = await send(
      platform,
      'query ($input: GetChallengeBySlugInput!) { getChallengeBySlug(input: $input) { challenge { status proofPhrase reason } } }',
      { input: { slug } },
      as,
    );
    const challenge = response.data?.getChallengeBySlug.challenge;
    if (!challenge) throw new Error(`getChallengeBySlug: ${JSON.stringify(response)}`);
    return challenge as { status: string; proofPhrase: string | null; reason: string | null };
  }
});
