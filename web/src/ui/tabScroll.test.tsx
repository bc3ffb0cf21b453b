import { act, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { alice, loggedInMock } from '../test/mocks';
import { renderApp } from '../test/renderApp';

/**
 * A phone-width strip (390 px) whose selected tab sits at 600-700 px: opening the page must scroll
 * the strip (only the strip) so that the tab is in view, centred: 600 - (390 - 100) / 2 = 455.
 */
function fakeLayout(
  isSelected: (element: Element) => boolean,
  isStrip: (element: Element) => boolean,
) {
  vi.spyOn(Element.prototype, 'getBoundingClientRect').mockImplementation(function (this: Element) {
    const rect = (left: number, width: number) =>
      ({
        left,
        width,
        right: left + width,
        top: 0,
        bottom: 40,
        height: 40,
        x: left,
        y: 0,
      }) as DOMRect;
    if (isStrip(this)) return rect(0, 390);
    if (isSelected(this)) return rect(600, 100);
    return rect(0, 0);
  });
}

describe('tab strips scroll the selected tab into view', () => {
  beforeEach(() => {
    vi.spyOn(window, 'scrollTo').mockImplementation(() => undefined);
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('the moderator page (buttons with aria-selected)', async () => {
    fakeLayout(
      (element) => element.getAttribute('aria-selected') === 'true',
      (element) => element.hasAttribute('data-tab-strip'),
    );
    renderApp({
      path: '/moderator?tab=verify-users',
      mocks: [loggedInMock({ ...alice, roles: ['admin'] })],
    });
    const tab = await screen.findByRole('tab', { name: 'Verify users', selected: true });
    const strip = tab.closest('[data-tab-strip]') as HTMLElement;
    expect(strip.scrollLeft).toBe(455);
  });

  it('route tab links (settings)', async () => {
    fakeLayout(
      (element) => element.getAttribute('aria-current') === 'page',
      (element) => element.hasAttribute('data-tab-strip'),
    );
    renderApp({ path: '/settings/guidelines', mocks: [loggedInMock()] });
    const tabs = await screen.findByRole('navigation', { name: 'Settings sections' });
    await screen.findByRole('heading', { level: 2, name: 'Guidelines' });
    expect(tabs.scrollLeft).toBe(455);
  });

  it('the challenge dashboard (four tabs since the completed one, issue 22 point 14)', async () => {
    fakeLayout(
      (element) => element.getAttribute('aria-current') === 'page',
      (element) => element.hasAttribute('data-tab-strip'),
    );
    renderApp({ path: '/challenge-dashboard?tab=activity', mocks: [loggedInMock()] });
    const tabs = await screen.findByRole('navigation', { name: 'Dashboard sections' });
    expect(tabs.scrollLeft).toBe(455);
  });

  it('again when the screen changes size (a phone turned, a window resized)', async () => {
    fakeLayout(
      (element) => element.getAttribute('aria-current') === 'page',
      (element) => element.hasAttribute('data-tab-strip'),
    );
    renderApp({ path: '/settings/guidelines', mocks: [loggedInMock()] });
    const tabs = await screen.findByRole('navigation', { name: 'Settings sections' });
    await screen.findByRole('heading', { level: 2, name: 'Guidelines' });
    // Wide, everything fitted and the strip went back to its start; narrow again now.
    tabs.scrollLeft = 0;
    act(() => {
      window.dispatchEvent(new Event('resize'));
    });
    expect(tabs.scrollLeft).toBe(455);
  });
});
