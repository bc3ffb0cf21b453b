import { isKnownUser } from '@challenge/challenge/seed';
import { seedPassword } from '@challenge/identity/seed';
import { seedUploadedVideo } from '@challenge/media/seed';
import { eventually } from '@challenge/testing';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Browsers, expectNoAxeViolations, heading, shoot, webDist } from '../support/browser.ts';
import {
  CREATE,
  challengeInput,
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
const PASSWORD = 'Sturdy-Pass-42!';
/** Each test visits a dozen screens, each checked by axe and shot at two widths. */
const SCREENS_TIMEOUT = 240_000;

/**
 * Issue 22, "Money and trust", points 1 to 4 (and the screens of 5 to 7), in Debian's Chromium
 * against the built web app behind the gateway and all six services. axe-core runs on every
 * screen and dialog the test visits: 0 violations of any impact. Screenshots at phone and
 * desktop width, in English and Dutch (`-nl`), under e2e/test-results/screenshots/ (trust-*).
 */
describe('money and trust in the browser', () => {
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

  /** Checks the screen with axe, then shoots it at both widths. */
  async function look(page: Page, name: string, options: { fullPage?: boolean } = {}) {
    await expectNoAxeViolations(page, name);
    await shoot(page, `trust-${name}`, options);
  }

  /**
   * Closes the toasts once read: their markup and place are point 13's (h/deadends, ADR 84), so
   * axe and the pictures look at the screen under them.
   */
  async function dismissToasts(page: Page) {
    const toasts = page.getByRole('region', { name: 'Notifications' });
    for (const button of await toasts.getByRole('button').all()) await button.click();
    await toasts.getByRole('button').first().waitFor({ state: 'detached' });
  }

  /** Answers every session check of `page` with a 429 while `refuse()` says so; counts them. */
  async function refuseSessionChecks(page: Page, refuse: () => boolean, count: () => void) {
    await page.route('**/graphql', async (route) => {
      if (route.request().postData()?.includes('getCurrentUserProfile') && refuse()) {
        count();
        await route.fulfill({
          status: 429,
          contentType: 'application/json',
          headers: { 'retry-after': '1' },
          body: JSON.stringify({
            errors: [
              {
                message: 'Too many requests. Please wait a moment and try again.',
                extensions: { code: 'TOO_MANY_REQUESTS', identifier: 'too_many_requests' },
              },
            ],
          }),
        });
        return;
      }
      await route.continue();
    });
  }

  it(
    '1: a payout held after an IBAN change shows why and until when, the export says what it left out, staff release it',
    async () => {
      const [payee, moderator, admin] = await Promise.all([
        adult({ cents: FUNDS }),
        adult({ roles: ['user', 'moderator'] }),
        adult({ roles: ['user', 'admin'] }),
      ]);
      // The bank account was replaced an hour ago: the payout asked now waits for staff.
      await platform.wallet.app.db.paymentProfile.create({
        data: {
          userId: payee.id,
          name: 'Dana Kok',
          iban: 'DE89370400440532013000',
          bic: 'COBADEFFXXX',
          address: 'Unter den Linden 1',
          postalCode: '10117',
          city: 'Berlin',
          countryCode: 'DE',
          phoneNumber: '+49 30 1234567',
          ibanChangedAt: new Date(Date.now() - 60 * 60 * 1000),
        },
      });
      const asked = await send(
        platform,
        `mutation { payoutRequest(input: { amount: 1500 }) { status { success } payoutRequest { id heldForReview } } }`,
        {},
        payee,
      );
      expect(asked.data?.payoutRequest.payoutRequest.heldForReview).toBe(true);

      const page = await browsers.pageOf(moderator);
      await page.goto(`${platform.origin}/moderator?tab=payouts`);
      await heading(page, 'Moderator dashboard').waitFor();
      const row = page.getByRole('row').filter({ hasText: 'Dana Kok' });
      await row.getByText('Held for review').waitFor();
      await row.getByText(/The bank account was changed .*Held until staff release it/).waitFor();
      await look(page, 'payout-held');

      await page.getByRole('button', { name: 'Download XML' }).click();
      await page
        .getByText(/held for review after a change of bank account/)
        .first()
        .waitFor();
      await look(page, 'payout-export-left-out');

      // The same hold in Dutch, and its release dialog (closed again with Escape).
      const nl = await browsers.pageOf(moderator, { language: 'nl' });
      await nl.goto(`${platform.origin}/moderator?tab=payouts`);
      await heading(nl, 'Moderatordashboard').waitFor();
      const nlRow = nl.getByRole('row').filter({ hasText: 'Dana Kok' });
      await nlRow.getByText('Wacht op controle').waitFor();
      await look(nl, 'payout-held-nl');
      await nlRow.getByRole('button', { name: /^Vrijgeven: Dana Kok/ }).click();
      await nl.getByRole('dialog', { name: 'Deze uitbetaling vrijgeven?' }).waitFor();
      await look(nl, 'payout-release-dialog-nl', { fullPage: false });
      await nl.keyboard.press('Escape');

      await row.getByRole('button', { name: 'Release: Dana Kok, €15.00' }).click();
      const dialog = page.getByRole('dialog', { name: 'Release this payout?' });
      await dialog.getByText('€15.00').waitFor();
      await look(page, 'payout-release-dialog', { fullPage: false });
      await dialog.getByRole('button', { name: 'Yes, release it' }).click();
      await page
        .getByText('The payout of €15.00 to Dana Kok is released; it goes into the next SEPA file')
        .first()
        .waitFor();
      await row.getByText('Held for review').waitFor({ state: 'detached' });
      await dismissToasts(page);
      await look(page, 'payout-released');

      // The admin's audit log names the release and the export, with the payee and the amount.
      const adminPage = await browsers.pageOf(admin);
      await adminPage.goto(`${platform.origin}/moderator?tab=audit-log`);
      const log = adminPage.getByRole('table', { name: 'Audit log' });
      await eventually(async () => {
        await adminPage.reload();
        await log
          .getByRole('row')
          .filter({ hasText: 'Released a held payout' })
          .filter({ hasText: `€15.00 to @${payee.username}` })
          .waitFor({ timeout: 2_000 });
      });
      await look(adminPage, 'audit-log');
    },
    SCREENS_TIMEOUT,
  );

  it(
    '2: approving a video asks first, saying who gets how much, right under the banner',
    async () => {
      const [owner, challenged] = await Promise.all([adult({ cents: FUNDS }), adult()]);
      const name = `Juggle five balls ${owner.username.slice(-4)}`;
      const slug = await eventually(async () => {
        const input = { ...challengeInput({ challenged, reward: REWARD }), challengeName: name };
        const { data } = await send(platform, CREATE, { input }, owner);
        expect(data?.createChallenge.status.identifier).toBe('ok');
        return data!.createChallenge.challenges[0].slug as string;
      });
      const { id } = await statusBecomes(platform, owner, slug, 'open');
      expect((await setStatus(platform, challenged, slug, 'accepted')).status.identifier).toBe(
        'ok',
      );
      await seedUploadedVideo(platform.media.app, {
        challengeId: id,
        uploaderId: challenged.id,
        bytes: await ffmpegVideo('mp4', '360x640'),
        extension: 'mp4',
      });
      await statusBecomes(platform, owner, slug, 'review');

      const page = await browsers.pageOf(owner);
      await page.goto(`${platform.origin}/challenge/${encodeURIComponent(slug)}/detail`);
      await heading(page, name).waitFor();
      const approve = page.getByRole('button', { name: 'Approve video' });
      await approve.waitFor();
      await look(page, 'approve-under-banner');

      // In Dutch: the same place, the same question (closed again with Escape).
      const nl = await browsers.pageOf(owner, { language: 'nl' });
      await nl.goto(`${platform.origin}/challenge/${encodeURIComponent(slug)}/detail`);
      await nl.getByRole('button', { name: 'Video goedkeuren' }).click();
      const nlDialog = nl.getByRole('dialog', {
        name: `De video van ${challenged.username} goedkeuren?`,
      });
      await nlDialog.waitFor();
      await look(nl, 'approve-confirm-nl', { fullPage: false });
      await nl.keyboard.press('Escape');
      await look(nl, 'approve-under-banner-nl');

      await approve.click();
      const dialog = page.getByRole('dialog', { name: `Approve ${challenged.username}'s video?` });
      await dialog.getByText(`${challenged.username} gets the reward of €5.00`).waitFor();
      await look(page, 'approve-confirm', { fullPage: false });
      await dialog
        .getByRole('button', { name: `Yes, pay €5.00 to ${challenged.username}` })
        .click();
      await page.getByText('Completed', { exact: true }).first().waitFor();
      await walletsBecome(platform, [
        [owner, { availableAmount: FUNDS - REWARD, freezeAmount: 0 }],
        [challenged, { availableAmount: REWARD, freezeAmount: 0 }],
      ]);

      // Point 5: the owner's wallet shows the reward leaving once, and cards that add up.
      await page.goto(`${platform.origin}/wallet`);
      await heading(page, 'Wallet').waitFor();
      const history = page.getByRole('region', { name: 'Transaction history' });
      await page.getByRole('button', { name: 'Show amounts' }).click();
      await history.getByText(/Reward paid for/).waitFor();
      const lines = (await history.innerText()).replace(/\s+/g, ' ');
      expect(lines.split('-€5.00').length - 1, lines).toBe(1);
      await look(page, 'wallet-one-line-per-reward');
      await nl.goto(`${platform.origin}/wallet`);
      await nl
        .getByRole('region', { name: 'Transactiegeschiedenis' })
        .getByRole('listitem')
        .first()
        .waitFor();
      await look(nl, 'wallet-one-line-per-reward-nl');
    },
    SCREENS_TIMEOUT,
  );

  it(
    '3: a refused session check is not a log-out: the client asks once more, then says it could not refresh',
    async () => {
      const user = await adult({ cents: FUNDS });
      const page = await browsers.pageOf(user);
      // Every getCurrentUserProfile answers 429 (a busy shared address) until `busy` is 0.
      let busy = 1;
      let asked = 0;
      await refuseSessionChecks(
        page,
        () => busy > 0,
        () => {
          asked += 1;
          busy -= 1;
        },
      );

      // One 429: asked again once, and the wallet shows as for any logged-in user.
      await page.goto(`${platform.origin}/wallet`);
      await heading(page, 'Wallet').waitFor();
      expect(asked).toBe(1);

      // Refused every time: not "Log in to continue", but "could not check" with a way to retry.
      busy = Number.MAX_SAFE_INTEGER;
      asked = 0;
      await page.reload();
      await heading(page, 'We could not check your session').waitFor();
      expect(asked).toBe(2); // the first request and one retry, no more
      expect(await page.getByRole('heading', { name: 'Log in to continue' }).count()).toBe(0);
      await page.getByText('We could not refresh your session.').waitFor();
      await look(page, 'session-check-failed');
      const nl = await browsers.pageOf(user, { language: 'nl' });
      await refuseSessionChecks(
        nl,
        () => true,
        () => undefined,
      );
      await nl.goto(`${platform.origin}/wallet`);
      await heading(nl, 'We konden je sessie niet controleren').waitFor();
      await look(nl, 'session-check-failed-nl');
      busy = 0;
      await page.getByRole('button', { name: 'Try again' }).first().click();
      await heading(page, 'Wallet').waitFor();
      await page.getByText('We could not refresh your session.').waitFor({ state: 'detached' });
    },
    SCREENS_TIMEOUT,
  );

  it(
    "4: a suspended person is told so, staff's reason at log-in, their money and support",
    async () => {
      const [user, moderator] = await Promise.all([
        adult({ cents: FUNDS }),
        adult({ roles: ['user', 'moderator'] }),
      ]);
      await seedPassword(platform.identity.app.db, user.id, PASSWORD);
      const page = await browsers.pageOf(user);
      await page.goto(`${platform.origin}/wallet`);
      await heading(page, 'Wallet').waitFor();

      const reason = 'Threatening messages in the comments.';
      const banned = await send(
        platform,
        `mutation ($input: BanUserInput!) { banUser(input: $input) { status { success identifier } } }`,
        { input: { userId: user.id, type: 'soft', reason } },
        moderator,
      );
      expect(banned.data?.banUser.status.success).toBe(true);

      // The open session's next request is refused (asked again until it is: a reload can race
      // the ban's mark reaching every check): not "Your session has ended".
      const notice = page.getByRole('dialog', { name: 'Your account is suspended' });
      await eventually(async () => {
        await page.reload();
        await notice
          .getByText('Log in again to read the reason they gave.', { exact: false })
          .waitFor({ timeout: 2_000 })
          .catch(async (error: unknown) => {
            // What the page showed instead, for the report of a failure.
            const shown = (await page.locator('body').innerText()).replace(/\s+/g, ' ');
            throw new Error(`${String(error)}\n${page.url()} shows: ${shown.slice(0, 500)}`);
          });
      });
      expect(await page.getByText('Your session has ended').count()).toBe(0);
      await look(page, 'suspended-session', { fullPage: false });
      const nl = await browsers.pageOf(user, { language: 'nl' });
      await nl.goto(`${platform.origin}/wallet`);
      await nl.getByRole('dialog', { name: 'Je account is geschorst' }).waitFor();
      await look(nl, 'suspended-session-nl', { fullPage: false });

      // Logging in with the right password tells why, what happens to the money, and support.
      await page.goto(`${platform.origin}/?modal=login-username-password`);
      const login = page.getByRole('dialog', { name: 'Log in with your password' });
      await login.getByLabel('Username').fill(user.username);
      await login.getByLabel('Password', { exact: true }).fill(PASSWORD);
      await login.getByRole('button', { name: 'Log in', exact: true }).click();
      await notice.getByText(reason).waitFor();
      await notice.getByText(/Your balance stays in your wallet/).waitFor();
      expect(await page.getByText(/Login failed/).count()).toBe(0);
      await look(page, 'suspended-login', { fullPage: false });
      await nl.goto(`${platform.origin}/?modal=login-username-password`);
      const nlLogin = nl.getByRole('dialog', { name: 'Inloggen met je wachtwoord' });
      await nlLogin.getByLabel('Gebruikersnaam').fill(user.username);
      await nlLogin.getByLabel('Wachtwoord', { exact: true }).fill(PASSWORD);
      await nlLogin.getByRole('button', { name: 'Inloggen', exact: true }).click();
      await nl.getByRole('dialog', { name: 'Je account is geschorst' }).getByText(reason).waitFor();
      await look(nl, 'suspended-login-nl', { fullPage: false });
      await notice.getByRole('link', { name: 'Contact support' }).click();
      await heading(page, 'Contact and support').waitFor();
    },
    SCREENS_TIMEOUT,
  );

  it(
    '7: changing the IBAN asks for the password up front and says why',
    async () => {
      const user = await adult({ cents: FUNDS });
      await seedPassword(platform.identity.app.db, user.id, PASSWORD);
      await platform.wallet.app.db.paymentProfile.create({
        data: {
          userId: user.id,
          name: 'Zoë de Vries',
          iban: 'NL91ABNA0417164300',
          bic: 'ABNANL2A',
          address: 'Keizersgracht 1',
          postalCode: '1015 CJ',
          city: 'Amsterdam',
          countryCode: 'NL',
          phoneNumber: '+31 6 12345678',
        },
      });
      const page = await browsers.pageOf(user);
      await page.goto(`${platform.origin}/settings/edit-payments`);
      const details = page.getByRole('form', { name: 'Payout details' });
      await details.getByRole('button', { name: 'Change bank account' }).waitFor();
      await look(page, 'iban-locked');
      await details.getByRole('button', { name: 'Change bank account' }).click();
      const dialog = page.getByRole('dialog', { name: 'Confirm it’s you' });
      await dialog.getByText(/whoever changes it receives your payouts/).waitFor();
      await look(page, 'iban-confirm', { fullPage: false });
      const nl = await browsers.pageOf(user, { language: 'nl' });
      await nl.goto(`${platform.origin}/settings/edit-payments`);
      await nl.getByRole('button', { name: 'Bankrekening wijzigen' }).click();
      await nl.getByRole('dialog', { name: 'Bevestig dat jij het bent' }).waitFor();
      await look(nl, 'iban-confirm-nl', { fullPage: false });
      await dialog.getByLabel('Your password').fill(PASSWORD);
      await dialog.getByRole('button', { name: 'Confirm' }).click();
      await dialog.waitFor({ state: 'detached' });
      await details.getByLabel('IBAN').fill('DE89 3704 0044 0532 0130 00');
      await details.getByLabel('BIC').fill('COBADEFFXXX');
      await details.getByRole('button', { name: 'Save payout details' }).click();
      await page.getByText('Your payout details have been saved').first().waitFor();
      const saved = await platform.wallet.app.db.paymentProfile.findUniqueOrThrow({
        where: { userId: user.id },
      });
      expect(saved.iban).toBe('DE89370400440532013000');
      await dismissToasts(page);
      await look(page, 'iban-saved');
    },
    SCREENS_TIMEOUT,
  );
});
