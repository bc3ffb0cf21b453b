import { eventually, inbox } from '@challenge/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Browsers, heading, shoot, webDist } from '../support/browser.ts';
import { challengeIn, person, send, type Person } from '../support/challenges.ts';
import { startPlatform, type Platform } from '../support/platform.ts';

/**
 * Issue 18's invitations by e-mail in the browser (docs/adr/0074): the owner of a challenge
 * invites an address; the invitation's opt-out link opens the opt-out page without an account,
 * where one press stops invitations; the owner's next invitation to that address is not sent. The
 * page's states (on, stopped, a bad link, no link) at phone and desktop width, in English and
 * Dutch, in e2e/test-results/screenshots/.
 */
const SHARE = `mutation ($input: ShareChallengeLinkInput!) { shareChallengeLink(input: $input) { status { success identifier } invitedCount } }`;

describe('invitations by e-mail in the browser', () => {
  let platform: Platform;
  let browsers: Browsers;
  let owner: Person;
  let slug: string;

  beforeAll(async () => {
    platform = await startPlatform({}, {}, { webDist });
    browsers = await Browsers.launch(platform.origin);
    owner = await person(platform, { cents: 2_000 });
    ({ slug } = await challengeIn(platform, 'open', { owner, challenged: await person(platform) }));
  }, 120_000);
  afterAll(async () => {
    await browsers?.close();
    await platform?.stop();
  });

  const invite = async (emails: string) => {
    const shared = await send(platform, SHARE, { input: { slug, emails } }, owner);
    expect(shared.data?.shareChallengeLink.status).toEqual({ success: true, identifier: 'ok' });
  };

  it('stops invitations from the link in one, and the next one is not sent', async () => {
    const stamp = Date.now();
    const friend = `browser-friend-${stamp}@example.test`;
    await invite(friend);
    const [mail] = await eventually(async () => {
      const messages = await inbox(friend);
      expect(messages).toHaveLength(1);
      return messages;
    });
    // The link in the mail, on this test's own origin (notification's is a placeholder here).
    const link = new URL(/https?:\/\/\S*\/email-opt-out\?token=\S+/.exec(mail!.text)![0]);
    const optOutPath = `${link.pathname}${link.search}`;

    const page = await browsers.pageOf();
    await page.goto(`${platform.origin}${optOutPath}`);
    await heading(page, 'Invitations by e-mail').waitFor();
    await page.getByText(friend).waitFor();
    await shoot(page, 'invitation-opt-out-on');
    await page.getByRole('button', { name: 'Stop invitations' }).click();
    await page.getByText('No more invitations are sent to this address.').first().waitFor();
    await shoot(page, 'invitation-opt-out-stopped');

    const dutch = await browsers.pageOf(undefined, { language: 'nl' });
    await dutch.goto(`${platform.origin}${optOutPath}`);
    await dutch.getByRole('button', { name: 'Stuur me weer uitnodigingen' }).waitFor();
    await shoot(dutch, 'invitation-opt-out-stopped-nl');

    const forged = `${optOutPath.slice(0, -3)}abc`;
    await page.goto(`${platform.origin}${forged}`);
    await page
      .getByRole('alert')
      .getByText(/This link is not valid/)
      .waitFor();
    await shoot(page, 'invitation-opt-out-invalid');
    await dutch.goto(`${platform.origin}/email-opt-out`);
    await dutch.getByText(/onderaan een uitnodiging/).waitFor();
    await shoot(dutch, 'invitation-opt-out-no-link-nl');

    // The owner invites the address again with another: the other arrives, it does not.
    const other = `browser-other-${stamp}@example.test`;
    await invite(`${friend} ${other}`);
    await eventually(async () => expect(await inbox(other)).toHaveLength(1));
    expect(await inbox(friend)).toHaveLength(1);
  });

  it("offers the invitation by e-mail on the owner's challenge page only", async () => {
    const ownerPage = await browsers.pageOf(owner);
    await ownerPage.goto(`${platform.origin}/challenge/${encodeURIComponent(slug)}/detail`);
    await ownerPage.getByRole('button', { name: 'Invite by e-mail' }).waitFor();
    const fan = await person(platform);
    const fanPage = await browsers.pageOf(fan);
    await fanPage.goto(`${platform.origin}/challenge/${encodeURIComponent(slug)}/detail`);
    await fanPage.getByRole('button', { name: 'Copy link' }).waitFor();
    expect(await fanPage.getByRole('button', { name: 'Invite by e-mail' }).count()).toBe(0);
  });
});
