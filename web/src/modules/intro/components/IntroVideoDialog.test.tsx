import { fireEvent, screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { getCookie } from '../../../lib/cookies';
import { loggedOutMock } from '../../../test/mocks';
import { renderApp } from '../../../test/renderApp';
import { INTRO_COOKIE } from '../introCookie';

describe('intro video dialog', () => {
  beforeEach(() => {
    document.cookie = `${INTRO_COOKIE}=; Max-Age=0; Path=/`;
  });

  it('greets a first-time visitor and sets the cookie when closed', async () => {
    renderApp({ path: '/', mocks: [loggedOutMock()] });
    const dialog = await screen.findByRole('dialog', { name: 'How it works' });
    expect(getCookie(INTRO_COOKIE)).toBeNull();
    // A real (short, wordless) video, WebM first and MP4 as the fallback.
    const video = dialog.querySelector('video');
    expect(video?.getAttribute('aria-label')).toBe('Introduction to the platform');
    expect(video?.hasAttribute('controls')).toBe(true);
    expect([...(video?.querySelectorAll('source') ?? [])].map((source) => source.src)).toEqual([
      expect.stringMatching(/\/intro\/intro\.webm$/),
      expect.stringMatching(/\/intro\/intro\.mp4$/),
    ]);
    fireEvent.click(within(dialog).getByRole('button', { name: "Got it, let's go" }));
    expect(screen.queryByRole('dialog', { name: 'How it works' })).toBeNull();
    expect(getCookie(INTRO_COOKIE)).toBe('true');
  });

  it('is not shown again once the cookie is set', async () => {
    document.cookie = `${INTRO_COOKIE}=true; Path=/`;
    renderApp({ path: '/', mocks: [loggedOutMock()] });
    expect(
      await screen.findByRole('heading', {
        level: 1,
        name: 'Dare your friends. Film it. Get paid.',
      }),
    ).toBeTruthy();
    expect(screen.queryByRole('dialog', { name: 'How it works' })).toBeNull();
  });

  it('gives way to a dialog opened by link', async () => {
    renderApp({ path: '/?modal=login-magic-link', mocks: [loggedOutMock()] });
    expect(await screen.findByRole('dialog', { name: 'Log in or sign up' })).toBeTruthy();
    expect(screen.queryByRole('dialog', { name: 'How it works' })).toBeNull();
  });
});
