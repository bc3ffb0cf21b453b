import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import AxeBuilder from '@axe-core/playwright';
import type { Role } from '@challenge/kit';
import { tokenFor } from '@challenge/testing';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

const here = path.dirname(fileURLToPath(import.meta.url));
/** The built web app; turbo builds it before this package's tests (turbo.json). */
export const webDist = path.resolve(here, '../../web/dist');
/** Test artefacts (gitignored: test-results/). Looked at by people, never compared by a test. */
export const screenshots = path.resolve(here, '../test-results/screenshots');
/** Debian's Chromium, which the stack installs (never a downloaded browser). */
const chromiumPath = execFileSync('sh', ['-c', 'command -v chromium || true'], {
  encoding: 'utf8',
}).trim();

/** A phone (iPhone 12 to 15) and a common laptop. */
export const SIZES = [
  { name: 'phone', width: 390, height: 844 },
  { name: 'desktop', width: 1366, height: 900 },
] as const;

/** Says what is missing instead of a browser error deep in a test. */
export function assertWebBuilt(): void {
  if (!existsSync(path.join(webDist, 'index.html'))) throw new Error(`no web build in ${webDist}`);
}

export interface BrowserUser {
  id: string;
  /** The roles in the session's token (a plain user when left out). */
  roles?: Role[];
}

/**
 * One Chromium for a test file, and a browser context per person in it (own cookies and
 * storage). `close` closes every context and the browser.
 */
export class Browsers {
  private readonly contexts: BrowserContext[] = [];

  private constructor(
    private readonly browser: Browser,
    private readonly origin: string,
  ) {}

  static async launch(origin: string): Promise<Browsers> {
    assertWebBuilt();
    mkdirSync(screenshots, { recursive: true });
    return new Browsers(await chromium.launch({ executablePath: chromiumPath }), origin);
  }

  /**
   * A page of its own for `who` in `language` at phone width: logged in when `who` is given
   * (the session cookie the gateway sets at log-in), a visitor otherwise. A returning visitor:
   * no intro video over the page unless `introSeen` is false.
   */
  async pageOf(
    who?: BrowserUser,
    { language = 'en', introSeen = true }: { language?: 'en' | 'nl'; introSeen?: boolean } = {},
  ): Promise<Page> {
    const context = await this.browser.newContext({
      locale: language === 'nl' ? 'nl-NL' : 'en-GB',
      viewport: SIZES[0],
    });
    this.contexts.push(context);
    // The language of a first visit; a switch later in the test is kept across loads.
    await context.addInitScript({
      content: `if (!localStorage.getItem('language')) localStorage.setItem('language', '${language}');`,
    });
    const cookies = [];
    // HttpOnly; no Secure over plain http.
    if (who)
      cookies.push({
        name: 'session',
        value: await tokenFor({ id: who.id, ...(who.roles ? { roles: who.roles } : {}) }),
        url: this.origin,
        httpOnly: true,
      });
    if (introSeen)
      cookies.push({ name: 'firstTimeVisitVideoWatched', value: 'true', url: this.origin });
    if (cookies.length > 0) await context.addCookies(cookies);
    return context.newPage();
  }

  async close(): Promise<void> {
    await Promise.all(this.contexts.map((context) => context.close()));
    await this.browser.close();
  }
}

/**
 * The whole page at phone and at desktop width, then back to the phone, saved as
 * `<name>-phone.png` and `<name>-desktop.png`, after axe-core found no violation of any impact
 * at that width (issue 22: every screen a browser test visits). A dialog is shot as the screen
 * shows it (the page under it does not scroll while it is open): pass `fullPage: false`.
 */
export async function shoot(page: Page, name: string, { fullPage = true } = {}): Promise<void> {
  // A page's code loads after the shell (ADR 81): its level-one heading says it is there. One
  // that never comes is axe's page-has-heading-one below.
  await page
    .locator('h1')
    .first()
    .waitFor({ state: 'attached', timeout: 15_000 })
    .catch(() => undefined);
  for (const size of [...SIZES].reverse()) {
    await page.setViewportSize(size);
    await expectNoAxeViolations(page, `${name} at ${size.name} width`);
    // From the top: a page scrolled by a click drew its sticky bars mid-page in the picture.
    await page.evaluate('window.scrollTo(0, 0)');
    await page.screenshot({
      path: path.join(screenshots, `${name}-${size.name}.png`),
      fullPage,
      animations: 'disabled',
    });
  }
}

/** The page's level-1 heading. */
export const heading = (page: Page, name: string | RegExp) =>
  page.getByRole('heading', { name, level: 1 });

/**
 * Waits for the page's finite animations and transitions (a toast fading in, a dialog sliding
 * up): axe measures colour contrast with the opacity of the moment, so a frame mid-fade reads as
 * a contrast failure that no user sees once it has settled. Endless ones (a spinner) are left.
 */
async function finishAnimations(page: Page): Promise<void> {
  // A string: this workspace has no DOM types. A paused animation never finishes, hence the cap.
  await page.evaluate(`Promise.race([
    Promise.all(
      document
        .getAnimations()
        .filter((animation) => animation.effect?.getComputedTiming().endTime !== Infinity)
        .map((animation) => animation.finished.catch(() => undefined)),
    ),
    new Promise((resolve) => setTimeout(resolve, 3000)),
  ])`);
}

/**
 * axe-core on the page as it is now (every rule axe runs by default, every impact): throws with
 * each violation and the elements it found, so a browser test fails on the first screen that
 * has one. `context` names the screen in the message.
 */
export async function expectNoAxeViolations(page: Page, context?: string): Promise<void> {
  await finishAnimations(page);
  const { violations } = await new AxeBuilder({ page }).analyze();
  if (violations.length === 0) return;
  const found = violations.map(
    (violation) =>
      `${violation.impact ?? 'unknown'} ${violation.id}: ${violation.help}\n` +
      violation.nodes
        .slice(0, 5)
        .map((node) => `    ${node.target.join(' ')}`)
        .join('\n'),
  );
  throw new Error(
    `axe: ${violations.length} violation(s)${context ? ` on ${context}` : ''}\n${found.join('\n')}`,
  );
}
