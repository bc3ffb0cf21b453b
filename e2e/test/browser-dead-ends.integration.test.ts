import { randomUUID } from 'node:crypto';
import { isKnownUser } from '@challenge/challenge/seed';
import { seedPassword } from '@challenge/identity/seed';
import { eventually, inbox } from '@challenge/testing';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  Browsers,
  SIZES,
  expectNoAxeViolations,
  heading,
  shoot,
  webDist,
} from '../support/browser.ts';
import { person } from '../support/challenges.ts';
import { startPlatform, type Platform } from '../support/platform.ts';

const PASSWORD = 'Sturdy-Pass-42';

/**
 * Issue 22's dead ends, walked with the keyboard in Debian's Chromium against the built web app
 * and the whole platform: the log-in dialogs say what is wrong on the field (point 9), focus
 * comes back to what opened a dialog and a step change is announced (point 11), and the person a
 * challenge is for is looked up on step 1, also from their profile (point 8). axe-core checks
 * every screen on the way, at phone and desktop width: no violation of any impact.
 */
describe('dead ends in the browser', () => {
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

  /** axe at both widths and the screenshots of `name` (shoot), back at phone width. */
  const check = shoot;

  const isFocused = async (locator: Locator) =>
    locator.evaluate((element) => element === element.ownerDocument.activeElement);
  const focusedIsBody = (page: Page) =>
    page.evaluate<boolean>('document.activeElement === document.body');
  /** The ids the element says describe it point at an element showing `text`. */
  async function describedBy(field: Locator, text: string): Promise<boolean> {
    const ids = ((await field.getAttribute('aria-describedby')) ?? '').split(/\s+/);
    for (const id of ids.filter(Boolean)) {
      const shown = await field.page().locator(`[id="${id}"]`).textContent();
      if (shown?.includes(text)) return true;
    }
    return false;
  }
  async function codeFor(address: string): Promise<string> {
    return eventually(async () => {
      const [mail] = await inbox(address);
      const code = mail?.text.match(/\b\d{6}\b/)?.[0];
      if (!code) throw new Error(`no code for ${address} yet`);
      return code;
    });
  }

  it('log-in by keyboard: each mistake on its field, focus back on the opener (points 9, 11)', async () => {
    const member = await person(platform);
    await seedPassword(platform.identity.app.db, member.id, PASSWORD);
    const page = await browsers.pageOf();
    await page.setViewportSize(SIZES[1]);
    await page.goto(`${platform.origin}/`);
    const sidebar = page.getByRole('complementary', { name: 'Sidebar' });
    const opener = sidebar.getByRole('button', { name: 'Log in' });
    await opener.waitFor();
    await expectNoAxeViolations(page, 'the home page of a visitor');

    // An e-mail address that is not one: said on the field when sent with Enter.
    await opener.focus();
    await page.keyboard.press('Enter');
    const magic = page.getByRole('dialog', { name: 'Log in or sign up' });
    const email = magic.getByLabel('E-mail address');
    await eventually(async () => expect(await isFocused(email)).toBe(true));
    await page.keyboard.type('sam@example');
    await page.keyboard.press('Enter');
    await magic.getByText('Value is not a valid email address').waitFor();
    expect(await email.getAttribute('aria-invalid')).toBe('true');
    expect(await describedBy(email, 'Value is not a valid email address')).toBe(true);
    expect(await isFocused(email)).toBe(true);
    await check(page, 'login-invalid-email', { fullPage: false });
    await page.setViewportSize(SIZES[1]);

    // Escape: the dialog goes and focus is back on the button that opened it.
    await page.keyboard.press('Escape');
    await magic.waitFor({ state: 'hidden' });
    expect(await isFocused(opener)).toBe(true);

    // A wrong code: on the code field, not in a toast.
    await page.keyboard.press('Enter');
    await eventually(async () => expect(await isFocused(email)).toBe(true));
    await page.keyboard.type(member.email);
    await page.keyboard.press('Enter');
    const codeStep = page.getByRole('dialog', { name: 'Check your inbox' });
    const codeField = codeStep.getByLabel('Login code');
    await codeField.waitFor();
    const code = await codeFor(member.email);
    const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
    await codeField.fill(wrong);
    await page.keyboard.press('Enter');
    const wrongCode = 'That code is not right. Check the code in the e-mail and try again.';
    await codeStep.getByText(wrongCode).waitFor();
    expect(await codeField.getAttribute('aria-invalid')).toBe('true');
    expect(await describedBy(codeField, wrongCode)).toBe(true);
    expect(await page.getByRole('region', { name: 'Notifications' }).textContent()).not.toContain(
      wrongCode,
    );
    await check(page, 'login-wrong-code', { fullPage: false });
    await page.setViewportSize(SIZES[1]);

    // To the password dialog and back out: focus still returns to the opener.
    await codeStep.getByRole('button', { name: 'Use a different e-mail address' }).focus();
    await page.keyboard.press('Enter');
    await magic.getByRole('button', { name: 'Log in with a password' }).focus();
    await page.keyboard.press('Enter');
    const passwordDialog = page.getByRole('dialog', { name: 'Log in with your password' });
    const login = passwordDialog.getByLabel('Username or e-mail address');
    await eventually(async () => expect(await isFocused(login)).toBe(true));
    await page.keyboard.press('Escape');
    await passwordDialog.waitFor({ state: 'hidden' });
    expect(await isFocused(opener)).toBe(true);

    // The e-mail address in place of the username, a wrong password: said on the password field.
    await page.keyboard.press('Enter');
    await magic.getByRole('button', { name: 'Log in with a password' }).focus();
    await page.keyboard.press('Enter');
    await eventually(async () => expect(await isFocused(login)).toBe(true));
    await page.keyboard.type(member.email);
    await page.keyboard.press('Tab');
    await page.keyboard.type('Wrong-Pass-41');
    await page.keyboard.press('Enter');
    const failed = 'Login failed: The username or password is incorrect.';
    await passwordDialog.getByText(failed).waitFor();
    const password = passwordDialog.getByLabel('Password', { exact: true });
    expect(await password.getAttribute('aria-invalid')).toBe('true');
    expect(await describedBy(password, failed)).toBe(true);
    expect(await isFocused(password)).toBe(true);
    expect(await page.getByRole('region', { name: 'Notifications' }).textContent()).not.toContain(
      'Login failed',
    );
    await check(page, 'login-wrong-password', { fullPage: false });
    await page.setViewportSize(SIZES[1]);

    // The right one logs in; the opener is gone with the log-in box, focus is on the page.
    await password.fill(PASSWORD);
    await page.keyboard.press('Enter');
    await passwordDialog.waitFor({ state: 'hidden' });
    await sidebar.getByRole('link', { name: new RegExp(member.username) }).waitFor();
    expect(await focusedIsBody(page)).toBe(false);
    await check(page, 'login-done');
  }, 180_000);

  it('create flow by keyboard: nobody by that name is said on step 1, the next step is announced (points 8, 11)', async () => {
    const [owner, friend] = await Promise.all([
      person(platform, { cents: 2_000 }),
      person(platform),
    ]);
    await eventually(async () => {
      if (!(await isKnownUser(platform.challenge.app.db, friend.id)))
        throw new Error('challenge does not know the friend yet');
    });
    const page = await browsers.pageOf(owner);
    await page.goto(`${platform.origin}/challenge/create/step-1`);
    await heading(page, 'Send your Challenge').waitFor();
    const username = page.getByLabel('Username', { exact: true });
    await username.focus();
    const nobody = `nobody_${randomUUID().slice(0, 6)}`;
    await page.keyboard.type(nobody);
    const notFound = `There is no user @${nobody}. Check the spelling, or challenge them by e-mail.`;
    await page.getByText(notFound).waitFor();
    expect(await username.getAttribute('aria-invalid')).toBe('true');
    await check(page, 'create-step-1-unknown-user');

    await username.fill('');
    await page.keyboard.type(friend.username);
    await page.getByText(`Found: @${friend.username}`).waitFor();
    await page.keyboard.press('Tab');
    await page.keyboard.type('Juggle three oranges');
    await page.keyboard.press('Tab');
    await page.keyboard.type('For a whole minute, outside, without dropping one.');
    await page.getByRole('button', { name: 'Next: details' }).focus();
    await page.keyboard.press('Enter');

    // Step 2 is said, and the keyboard goes on from its heading.
    const step2 = heading(page, 'Challenge Details');
    await step2.waitFor();
    await eventually(async () => expect(await isFocused(step2)).toBe(true));
    await page
      .getByRole('status')
      .filter({ hasText: 'Step 2 of 2: Challenge Details' })
      .waitFor({ state: 'attached' });
    await check(page, 'create-step-2-announced');

    await page.getByLabel('Reward in euros').focus();
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.type('3');
    await page.getByLabel('Tags', { exact: true }).focus();
    await page.keyboard.type('juggling');
    await page.keyboard.press('Enter');
    await page.getByRole('button', { name: 'Remove tag juggling' }).waitFor();
    await page.getByRole('checkbox', { name: /I accept that €3\.00 is taken/ }).focus();
    await page.keyboard.press('Space');
    await page.getByRole('button', { name: 'Send challenge' }).focus();
    await page.keyboard.press('Enter');
    await heading(page, 'Your challenge is on its way').waitFor({ timeout: 20_000 });
    await check(page, 'create-sent-by-keyboard');
  }, 180_000);

  it('a profile\'s "Challenge @user" starts step 1 with them filled in (point 8)', async () => {
    const [visitorOwner, friend] = await Promise.all([person(platform), person(platform)]);
    const page = await browsers.pageOf(visitorOwner);
    await page.goto(`${platform.origin}/profile/${friend.username}`);
    const challenge = page.getByRole('button', { name: `Challenge @${friend.username}` });
    await challenge.waitFor();
    await check(page, 'profile-challenge-user');
    await challenge.click();
    await heading(page, 'Send your Challenge').waitFor();
    expect(await page.getByLabel('Username', { exact: true }).inputValue()).toBe(friend.username);
    await page.getByText(`Found: @${friend.username}`).waitFor();
    await check(page, 'create-step-1-from-profile');
  }, 180_000);

  it('sign-up on a phone: one banner, the form not in error, focus back after cancel (points 10, 11)', async () => {
    const page = await browsers.pageOf();
    await page.goto(`${platform.origin}/`);
    await page.getByRole('button', { name: 'Menu' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Log in' }).click();
    const magic = page.getByRole('dialog', { name: 'Log in or sign up' });
    const address = `new-${randomUUID().slice(0, 8)}@example.test`;
    await magic.getByLabel('E-mail address').fill(address);
    await page.keyboard.press('Enter');
    const codeField = page
      .getByRole('dialog', { name: 'Check your inbox' })
      .getByLabel('Login code');
    await codeField.fill(await codeFor(address));
    await page.keyboard.press('Enter');

    const complete = page.getByRole('dialog', { name: 'Complete your account' });
    const username = complete.getByLabel('Username', { exact: true });
    await username.waitFor();
    // Opened, and a field passed through: nothing is in error yet.
    await page.keyboard.press('Tab');
    expect(await complete.locator('[aria-invalid="true"]').count()).toBe(0);
    await expectNoAxeViolations(page, 'complete account on a phone');

    // The username tooltip opens above the field, which stays visible.
    const info = complete.getByRole('button', { name: 'About usernames' });
    await info.hover();
    const tooltip = complete.getByRole('tooltip');
    await tooltip.waitFor();
    const [tip, field] = await Promise.all([tooltip.boundingBox(), username.boundingBox()]);
    expect(tip && field && tip.y + tip.height <= field.y).toBe(true);
    await shoot(page, 'complete-account-tooltip', { fullPage: false });

    // Sent too early: every problem listed, focus on the first field at fault.
    await complete.getByRole('button', { name: 'Create my account' }).click();
    await eventually(async () => expect(await isFocused(username)).toBe(true));
    expect(await complete.locator('[aria-invalid="true"]').count()).toBeGreaterThan(0);
    await check(page, 'complete-account-sent-too-early', { fullPage: false });

    await complete.getByRole('button', { name: 'Cancel' }).click();
    await complete.waitFor({ state: 'hidden' });
    expect(await focusedIsBody(page)).toBe(false);
    await check(page, 'complete-account-cancelled');
  }, 180_000);
});
