import { isKnownUser } from '@challenge/challenge/seed';
import { eventually } from '@challenge/testing';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Browsers, heading, shoot, webDist } from '../support/browser.ts';
import { challengeIn, person, type Person } from '../support/challenges.ts';
import { startPlatform, type Platform } from '../support/platform.ts';

/**
 * The first load of the public pages (issue 22, docs/adr/0081): the gateway sends each one
 * prerendered and compressed, and the browser hydrates it without a mismatch (a mismatch makes
 * React throw the page away and render it again: an error in the console, the work done twice).
 * Screens under e2e/test-results/screenshots/first-load-*.png.
 */
describe('first load of the public pages in the browser', () => {
  let platform: Platform;
  let browsers: Browsers;
  let owner: Person;
  let slug: string;

  beforeAll(async () => {
    platform = await startPlatform({}, {}, { webDist });
    browsers = await Browsers.launch(platform.origin);
    const adult = async (cents?: number) => {
      const who = await person(platform, cents ? { cents } : {});
      await eventually(async () => {
        if (!(await isKnownUser(platform.challenge.app.db, who.id)))
          throw new Error(`challenge does not know ${who.username} yet`);
      });
      return who;
    };
    const challenged = await adult();
    owner = await adult(5_000);
    ({ slug } = await challengeIn(platform, 'open', { owner, challenged }));
  }, 180_000);
  afterAll(async () => {
    await browsers?.close();
    await platform?.stop();
  });

  /** Loads `path` as a visitor; what the server sent, and every error the page reported. */
  async function visit(page: Page, path: string) {
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(`console: ${message.text()}`);
    });
    const response = await page.goto(`${platform.origin}${path}`);
    if (!response) throw new Error(`no response for ${path}`);
    return { response, body: await response.text(), errors };
  }

  for (const language of ['en', 'nl'] as const) {
    it(`sends the challenge page and a profile prerendered, and they hydrate (${language})`, async () => {
      const pages = [
        {
          name: 'challenge',
          path: `/challenge/${slug}/detail`,
          title: 'Juggle three oranges',
        },
        { name: 'profile', path: `/profile/${owner.username}/ongoing-challenges`, title: null },
        { name: 'home', path: '/', title: null },
      ];
      for (const { name, path, title } of pages) {
        const page = await browsers.pageOf(undefined, { language });
        await page
          .context()
          .addCookies([{ name: 'language', value: language, url: platform.origin }]);
        const { response, body, errors } = await visit(page, path);
        expect(response.status(), path).toBe(200);
        expect(response.headers()['content-encoding'], path).toBe('br');
        // The page itself, not the empty root nor the not-found page.
        expect(body, path).toMatch(/<div id="root"><div/);
        expect(body, path).not.toContain('data-error-key');
        expect(body, path).toContain(`<html lang="${language}"`);
        if (title) await heading(page, title).waitFor();
        else await page.getByRole('main').waitFor();
        // Hydrated, and every chunk and query the page asks for answered.
        await page.waitForLoadState('networkidle');
        expect(errors, path).toEqual([]);
        if (language === 'en') await shoot(page, `first-load-${name}`, { fullPage: false });
        await page.close();
      }
    });
  }
});
