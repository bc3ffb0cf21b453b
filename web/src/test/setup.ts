import { cleanup, configure } from '@testing-library/react';
import { afterEach, beforeEach, vi } from 'vitest';
import { INTRO_COOKIE } from '../modules/intro/introCookie';
import { rememberAllowedLocation } from '../modules/location/locationVerdict';

function clearCookies() {
  for (const part of document.cookie.split(';')) {
    const name = part.split('=')[0]?.trim();
    if (name) document.cookie = `${name}=; Max-Age=0; Path=/`;
  }
}

// Routes load their page chunk on first visit; a cold transform in a busy parallel run can take
// longer than Testing Library's default one second.
configure({ asyncUtilTimeout: 5000 });

// jsdom does not implement scrolling; the router's scroll restoration calls it on navigation.
window.scrollTo = vi.fn() as unknown as typeof window.scrollTo;

beforeEach(() => {
  window.localStorage.clear();
  window.sessionStorage.clear();
  // The location check (route guard step 2) passed earlier in this browser session; tests about
  // the check itself clear this and pass their own verdict to renderApp.
  rememberAllowedLocation();
  // The first-visit intro would cover every page; tests that are about it remove this cookie.
  document.cookie = `${INTRO_COOKIE}=true; Path=/`;
});

afterEach(() => {
  cleanup();
  clearCookies();
  document.body.className = '';
});
