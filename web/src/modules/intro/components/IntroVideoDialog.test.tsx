import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fireEvent, screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { getCookie } from '../../../lib/cookies';
import { loggedOutMock } from '../../../test/mocks';
import { renderApp } from '../../../test/renderApp';
import { INTRO_COOKIE } from '../introCookie';

/** The video's text tracks as the browser gets them. */
const captionsOf = (video: Element | null) =>
  [...(video?.querySelectorAll('track') ?? [])].map((track) => ({
    kind: track.getAttribute('kind'),
    lang: track.getAttribute('srclang'),
    src: track.getAttribute('src'),
    on: track.hasAttribute('default'),
  }));

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
    // Captions in both languages, the interface's on (issue 22, point 14).
    expect(captionsOf(video)).toEqual([
      { kind: 'captions', lang: 'en', src: '/intro/intro.en.vtt', on: true },
      { kind: 'captions', lang: 'nl', src: '/intro/intro.nl.vtt', on: false },
    ]);
    fireEvent.click(within(dialog).getByRole('button', { name: "Got it, let's go" }));
    expect(screen.queryByRole('dialog', { name: 'How it works' })).toBeNull();
    expect(getCookie(INTRO_COOKIE)).toBe('true');
  });

  it('shows the Dutch captions in a Dutch interface', async () => {
    renderApp({ path: '/', language: 'nl', mocks: [loggedOutMock()] });
    const dialog = await screen.findByRole('dialog', { name: 'Zo werkt het' });
    expect(captionsOf(dialog.querySelector('video')).filter(({ on }) => on)).toEqual([
      { kind: 'captions', lang: 'nl', src: '/intro/intro.nl.vtt', on: true },
    ]);
  });

  it('has caption files in both languages that tell the same steps at the same times', () => {
    const cues = (language: string) => {
      const text = readFileSync(
        path.resolve(import.meta.dirname, `../../../../public/intro/intro.${language}.vtt`),
        'utf8',
      );
      expect(text.startsWith('WEBVTT\n')).toBe(true);
      return [...text.matchAll(/^(\d\d:\d\d:\d\d\.\d{3}) --> (\d\d:\d\d:\d\d\.\d{3})\n(.+)$/gm)];
    };
    const english = cues('en');
    const dutch = cues('nl');
    expect(english.length).toBeGreaterThanOrEqual(4);
    expect(dutch.map((cue) => [cue[1], cue[2]])).toEqual(english.map((cue) => [cue[1], cue[2]]));
    // create -> accept -> upload -> approve, numbered in both.
    for (const cueList of [english, dutch]) {
      expect(cueList.filter((cue) => /^[1-4]\. /.test(cue[3]!)).map((cue) => cue[3]![0])).toEqual([
        '1',
        '2',
        '3',
        '4',
      ]);
    }
    // The last cue ends when the 24-second video does (scripts/make-intro-video.sh).
    expect(english.at(-1)?.[2]).toBe('00:00:24.000');
  });

  it('lists the same four steps as the video tells, in both languages', async () => {
    for (const [language, name, titles] of [
      ['en', 'How it works', ['Create', 'Accept', 'Upload', 'Approve']],
      ['nl', 'Zo werkt het', ['Maken', 'Accepteren', 'Uploaden', 'Goedkeuren']],
    ] as const) {
      const { unmount } = renderApp({ path: '/', language, mocks: [loggedOutMock()] });
      const dialog = await screen.findByRole('dialog', { name });
      const steps = within(dialog).getAllByRole('heading', { level: 3 });
      expect(steps.map((step) => step.textContent)).toEqual(
        titles.map((title, index) => `${index + 1}. ${title}`),
      );
      unmount();
    }
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
