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
  let privateSlug: string;

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
    ({ slug: privateSlug } = await challengeIn(
      platform,
      'open',
      { owner, challenged },
      { visibility: 'private' },
    ));
  }, 180_000);
  afterAll(async () => {
    await browsers?.close();
    await platform?.stop();
  });

  /** Loads `path`; what the server sent, every error the page reported, its GraphQL operations. */
  async function visit(page: Page, path: string) {
    const errors: string[] = [];
    const operations: string[] = [];
    page.on('request', (request) => {
      if (!request.url().endsWith('/graphql') || request.method() !== 'POST') return;
      const body = request.postDataJSON() as { operationName?: string } | null;
      if (body?.operationName) operations.push(body.operationName);
    });
    page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(`console: ${message.text()}`);
    });
    const response = await page.goto(`${platform.origin}${path}`);
    if (!response) throw new Error(`no response for ${path}`);
    return { response, body: await response.text(), errors, operations };
  }

  /** The page data the gateway put into a page (docs/adr/0100), or null. */
  const pageDataOf = (body: string) => {
    const json = /<script type="application\/json" id="page-data">(.*?)<\/script>/s.exec(body)?.[1];
    return json ? (JSON.parse(json) as { operation: string; data: unknown }[]) : null;
  };

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
        const { response, body, errors, operations } = await visit(page, path);
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
        if (name === 'challenge') {
          // The challenge came with the page (docs/adr/0100): its title in the HTML, its two
          // queries answered in it as the visitor, and never asked again.
          expect(body).toMatch(/<h1 class="[^"]+">Juggle three oranges<\/h1>/);
          expect(pageDataOf(body)?.map((entry) => entry.operation)).toEqual([
            'ChallengeBySlug',
            'ChallengeVideos',
          ]);
          expect(JSON.stringify(pageDataOf(body))).not.toContain('"hasLiked":true');
          expect(operations).not.toContain('ChallengeBySlug');
          expect(operations).not.toContain('ChallengeVideos');
          // The whole page after hydration: the state badge is not part of the preview.
          await page.locator('[data-status]').first().waitFor();
        }
        if (language === 'en') await shoot(page, `first-load-${name}`, { fullPage: false });
        await page.close();
      }
    });
  }

  it('puts a challenge into its page only as the visitor may see it (docs/adr/0100)', async () => {
    // A private challenge is not found for a visitor: 404, nothing of it in the page.
    const stranger = await browsers.pageOf(undefined);
    const hidden = await visit(stranger, `/challenge/${privateSlug}/detail`);
    expect(hidden.response.status()).toBe(404);
    expect(pageDataOf(hidden.body)).toBeNull();
    expect(hidden.body).not.toContain('For a whole minute');
    await stranger.close();
    // Its owner gets their own view, in their page.
    const own = await browsers.pageOf(owner);
    const mine = await visit(own, `/challenge/${privateSlug}/detail`);
    expect(mine.response.status()).toBe(200);
    const data = JSON.stringify(pageDataOf(mine.body));
    expect(data).toContain(`"slug":"${privateSlug}"`);
    expect(data).toContain('"visibility":"private"');
    expect(mine.body).toMatch(/<h1 class="[^"]+">Juggle three oranges<\/h1>/);
    await heading(own, 'Juggle three oranges').waitFor();
    await own.waitForLoadState('networkidle');
    expect(mine.errors).toEqual([]);
    expect(mine.operations).not.toContain('ChallengeBySlug');
    await own.close();
  });
});
