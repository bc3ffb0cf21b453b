import path from 'node:path';
import { isKnownUser } from '@challenge/challenge/seed';
import { eventually } from '@challenge/testing';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Browsers, heading, screenshots, webDist } from '../support/browser.ts';
import {
  CANCEL,
  challengeInput,
  CREATE,
  person,
  send,
  setStatus,
  statusBecomes,
  videoProcessed,
  type Person,
} from '../support/challenges.ts';
import { startPlatform, type Platform } from '../support/platform.ts';

const FUNDS = 2_000;
const TOASTS = 'Notifications';

/**
 * What a phone (390x844) shows of the shell around a page (issue 14's polish list, ADR 46): the
 * floating start button never rests on the line being read, a long title or name breaks
 * between words (or not at all), the fullscreen layout's back button keeps its text, and a toast
 * sits below the top bar, clear of the page title. Screens as the phone shows them are saved
 * under e2e/test-results/screenshots/phone-*.png.
 */
describe('phone layout in the browser', () => {
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

  async function adult(options: Parameters<typeof person>[1] = {}): Promise<Person> {
    const who = await person(platform, options);
    await eventually(async () => {
      if (!(await isKnownUser(platform.challenge.app.db, who.id)))
        throw new Error(`challenge does not know ${who.username} yet`);
    });
    return who;
  }

  /** The screen as the phone shows it (not the whole page). */
  const snap = (page: Page, name: string) =>
    page.screenshot({ path: path.join(screenshots, `phone-${name}.png`), animations: 'disabled' });

  const box = async (locator: Locator) => {
    const found = await locator.boundingBox();
    if (!found) throw new Error('not on the screen');
    return found;
  };
  type Box = Awaited<ReturnType<typeof box>>;
  const overlap = (a: Box, b: Box) =>
    a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

  /** Lines of an element's text as laid out: a word broken over two lines shows as a split. */
  /** A function run in the page (this package has no DOM types): its body as text. */
  const inPage = (body: string) => new Function('element', body) as (element: unknown) => unknown;

  /**
   * Whether a word of the element's text is broken over two lines: a line that starts right
   * after a letter or a digit (not a space or a hyphen).
   */
  const wordsBroken = async (locator: Locator) =>
    locator.evaluate(
      inPage(`
        const text = element.firstChild;
        if (!text || text.nodeType !== Node.TEXT_NODE) throw new Error('no text of its own');
        const content = text.textContent;
        const range = document.createRange();
        let lastTop = null;
        for (let index = 0; index < content.length; index += 1) {
          range.setStart(text, index);
          range.setEnd(text, index + 1);
          const top = range.getBoundingClientRect().top;
          if (lastTop !== null && top > lastTop + 2 && /[\\p{L}\\d]/u.test(content[index - 1]))
            return true;
          lastTop = top;
        }
        return false;
      `),
    );

  it("a duel's judging deadline is never under the start button", async () => {
    const [owner, challenged] = await Promise.all([
      adult({ cents: FUNDS }),
      adult({ cents: FUNDS }),
    ]);
    const slug = await eventually(async () => {
      const input = {
        ...challengeInput({ challenged, reward: 500 }),
        challengeType: 'duel',
        challengeName: `Handstand duel ${owner.username.slice(-4)}`,
      };
      const { data } = await send(platform, CREATE, { input }, owner);
      expect(data?.createChallenge.status.identifier).toBe('ok');
      return data!.createChallenge.challenges[0].slug as string;
    });
    const { id } = await statusBecomes(platform, owner, slug, 'open');
    await eventually(async () => {
      const accepted = await setStatus(platform, challenged, slug, 'accepted');
      if (!accepted.status.success) throw new Error(JSON.stringify(accepted.status));
    });
    await videoProcessed(platform, id, challenged.id);

    const page = await browsers.pageOf(owner);
    await page.goto(`${platform.origin}/challenge/${encodeURIComponent(slug)}/detail`);
    const deadline = page.getByText(/Treated as approved on/).first();
    await deadline.waitFor({ timeout: 30_000 });
    const fab = page.getByTestId('floating-start-button');
    const shown = async () => (await fab.getAttribute('data-tucked')) !== 'true';
    // Where the content ends: the button may rest only below it, on the page's bottom padding.
    const contentEnd = async () =>
      (await page.evaluate(
        `document.querySelector('main').lastElementChild.getBoundingClientRect().bottom`,
      )) as number;
    for (const where of ['end', 'center', 'start'] as const) {
      await deadline.evaluate(inPage(`element.scrollIntoView({ block: '${where}' });`));
      // Scrolling up a little: where the button used to come back.
      await page.mouse.wheel(0, -40);
      await page.waitForTimeout(500);
      if (where === 'end') await snap(page, 'duel-deadline');
      if (await shown()) {
        expect((await box(fab)).y, `line at the ${where}`).toBeGreaterThanOrEqual(
          await contentEnd(),
        );
      }
    }
    // At the end of the page it is there, over the padding kept for it.
    await page.evaluate('window.scrollTo(0, document.documentElement.scrollHeight)');
    await page.waitForTimeout(500);
    await snap(page, 'duel-end');
    expect(await shown()).toBe(true);
    expect((await box(fab)).y).toBeGreaterThanOrEqual(await contentEnd());
  });

  it('a long username and the Dutch moderator title break between words, the back button fits', async () => {
    const long = await adult({ username: `maximiliaanvandenberghe${Date.now() % 10}` });
    const page = await browsers.pageOf(long);
    await page.goto(`${platform.origin}/profile/${long.username}`);
    const name = heading(page, long.username);
    await name.waitFor();
    await snap(page, 'profile-long-username');
    expect(await wordsBroken(name)).toBe(false);
    const nameBox = await box(name);
    expect(nameBox.x + nameBox.width).toBeLessThanOrEqual(390);

    const admin = await adult({ roles: ['user', 'admin'] });
    const moderator = await browsers.pageOf(admin, { language: 'nl' });
    await moderator.goto(`${platform.origin}/moderator`);
    const title = heading(moderator, 'Moderatordashboard');
    await title.waitFor();
    await snap(moderator, 'nl-moderator');
    expect(await wordsBroken(title)).toBe(false);
    const back = moderator.getByRole('link', { name: 'Naar de app' });
    const fits = await back.evaluate(
      inPage(`return element.scrollWidth <= element.clientWidth &&
        element.getBoundingClientRect().right <= window.innerWidth;`),
    );
    expect(fits).toBe(true);
  });

  it('a toast does not cover the page title', async () => {
    const [owner, challenged] = await Promise.all([adult({ cents: FUNDS }), adult()]);
    const slug = await eventually(async () => {
      const input = {
        ...challengeInput({ challenged, reward: 500 }),
        challengeName: `Walk on hands ${owner.username.slice(-4)}`,
      };
      const { data } = await send(platform, CREATE, { input }, owner);
      expect(data?.createChallenge.status.identifier).toBe('ok');
      return data!.createChallenge.challenges[0].slug as string;
    });
    await statusBecomes(platform, owner, slug, 'open');
    expect(
      (await send(platform, CANCEL, { slug }, owner)).data?.cancelChallenge.status,
    ).toMatchObject({ success: true });
    const page = await browsers.pageOf(owner);
    await page.goto(`${platform.origin}/challenge/${encodeURIComponent(slug)}/detail`);
    const title = heading(page, /Walk on hands/);
    await title.waitFor();
    // Over: no Edit, only the visibility (ADR 67); its toast says it is done.
    expect(await page.getByRole('button', { name: 'Edit', exact: true }).count()).toBe(0);
    await page.getByRole('button', { name: 'Make private' }).click();
    const toast = page.getByRole('region', { name: TOASTS }).getByRole('status').first();
    await toast.getByText('The challenge is now private').waitFor();
    await page.getByRole('button', { name: 'Make public' }).waitFor();
    await page.evaluate('window.scrollTo(0, 0)');
    await page.waitForTimeout(400);
    await snap(page, 'toast');
    // The head of the page: from the top of the content (the status chips) to the title's end.
    const top = (await page.evaluate(
      `document.querySelector('main').firstElementChild.getBoundingClientRect().top`,
    )) as number;
    const titleBox = await box(title);
    const head = { x: 0, y: top, width: 390, height: titleBox.y + titleBox.height - top };
    expect(overlap(await box(toast), head)).toBe(false);
  });
});
