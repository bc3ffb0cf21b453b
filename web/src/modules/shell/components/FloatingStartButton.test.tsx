import { act, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { loggedOutMock } from '../../../test/mocks';
import { renderApp } from '../../../test/renderApp';
import { isUnderCreateChallenge } from './FloatingStartButton';

describe('floating start-a-challenge button', () => {
  it('knows which paths belong to the create flow', () => {
    expect(isUnderCreateChallenge('/challenge/create')).toBe(true);
    expect(isUnderCreateChallenge('/challenge/create/')).toBe(true);
    expect(isUnderCreateChallenge('/challenge/create/step-1')).toBe(true);
    expect(isUnderCreateChallenge('/challenge/create/step-2')).toBe(true);
    expect(isUnderCreateChallenge('/')).toBe(false);
    expect(isUnderCreateChallenge('/challenge/creative-dare/detail')).toBe(false);
    expect(isUnderCreateChallenge('/challenge/create-x/detail')).toBe(false);
  });

  it('is shown on ordinary pages and leads to step 1', async () => {
    renderApp({ path: '/challenge/creative-dare/detail', mocks: [loggedOutMock()] });
    const button = await screen.findByTestId('floating-start-button');
    expect(button.getAttribute('href')).toBe('/challenge/create/step-1');
    expect(button.textContent).toBe('Start a challenge');
  });

  it('sits, tooltip and all, in a landmark of its own (axe: all content in landmarks)', async () => {
    renderApp({ path: '/challenge/creative-dare/detail', mocks: [loggedOutMock()] });
    const button = await screen.findByTestId('floating-start-button');
    const landmark = screen.getByRole('navigation', { name: 'Quick start' });
    expect(landmark.contains(button)).toBe(true);
  });

  it.each(['/challenge/create/step-1', '/challenge/create/step-2'])(
    'is hidden on %s',
    async (path) => {
      renderApp({ path, mocks: [loggedOutMock()] });
      // Wait for the page itself, then check the button is absent.
      expect(await screen.findByRole('navigation', { name: 'Steps' })).toBeTruthy();
      expect(screen.queryByTestId('floating-start-button')).toBeNull();
    },
  );

  it('is hidden on /challenge/create, which goes to step 1', async () => {
    const { router } = renderApp({ path: '/challenge/create', mocks: [loggedOutMock()] });
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Send your Challenge' }),
    ).toBeTruthy();
    expect(router.state.location.pathname).toBe('/challenge/create/step-1');
    expect(screen.queryByTestId('floating-start-button')).toBeNull();
  });

  describe('on a phone it rests only on the bottom padding of the page (docs/adr/0068)', () => {
    const scrollTo = (y: number) =>
      act(() => {
        Object.defineProperty(window, 'scrollY', { configurable: true, value: y });
        window.dispatchEvent(new Event('scroll'));
      });
    const pageHeight = (height: number) =>
      Object.defineProperty(document.documentElement, 'scrollHeight', {
        configurable: true,
        value: height,
      });
    afterEach(() => {
      Object.defineProperty(window, 'scrollY', { configurable: true, value: 0 });
      pageHeight(0);
    });

    it('stays aside on a long page, at its top too, and shows at its end', async () => {
      pageHeight(3000);
      renderApp({ path: '/terms', mocks: [loggedOutMock()] });
      const button = await screen.findByTestId('floating-start-button');
      // The top of a long page has content where the button would sit (checked in an effect).
      await waitFor(() => expect(button.dataset['tucked']).toBe('true'));
      scrollTo(400);
      expect(button.dataset['tucked']).toBe('true');
      scrollTo(300);
      expect(button.dataset['tucked']).toBe('true');
      // The end of the page: the page's bottom padding keeps the button clear of the content.
      scrollTo(3000 - window.innerHeight);
      expect(button.dataset['tucked']).toBe('false');
      scrollTo(1000);
      expect(button.dataset['tucked']).toBe('true');
    });

    it('shows on a page that does not scroll, whose padding is under it', async () => {
      pageHeight(window.innerHeight);
      renderApp({ path: '/terms', mocks: [loggedOutMock()] });
      const button = await screen.findByTestId('floating-start-button');
      expect(button.dataset['tucked']).toBe('false');
    });
  });
});
