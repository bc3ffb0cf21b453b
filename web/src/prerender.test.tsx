import { describe, expect, it } from 'vitest';
import { PRERENDERED_LANGUAGES, PRERENDERED_PAGES, renderPage } from './prerender';

/**
 * The build's prerender (docs/adr/0081): a page with a route parameter is rendered with a
 * placeholder in its place, which the page's own validation must accept, or the build ships
 * the not-found page for every challenge and profile (and the browser's hydration then fails).
 */
describe('prerendered pages', () => {
  const withParams = PRERENDERED_PAGES.filter(({ pattern }) => pattern.includes(':'));

  it.each(withParams.map(({ pattern }) => pattern))(
    'renders %s itself, not the not-found page',
    async (pattern) => {
      for (const language of PRERENDERED_LANGUAGES) {
        const { html } = await renderPage(pattern, language);
        expect(html).not.toContain('data-error-key');
      }
    },
  );
});
