import { cleanup, configure } from '@testing-library/react';
import { afterEach, beforeEach, vi } from 'vitest';
import { registerTranslations } from '../app/i18n';
import en from '../locales/en.json';
import nl from '../locales/nl.json';
import { INTRO_COOKIE } from '../modules/intro/introCookie';
import { rememberAllowedLocation } from '../modules/location/locationVerdict';

function clearCookies() {
  for (const part of document.cookie.split(';')) {
    const name = part.split('=')[0]?.trim();
    if (name) document.cookie = `${name}=; Max-Age=0; Path=/`;
  }
}

// The app loads one language at a time (app/i18n.ts); tests switch freely between both.
registerTranslations('en', en);
registerTranslations('nl', nl);

// Pages, the sidebar and the dialogs load with Apollo beside them (app/dataComponent.tsx): the
// sidebar, the dialogs, the session notice and Apollo are in nearly every test, so transform them
// here rather than inside the first test's time limit.
await Promise.all([
  import('../app/apolloBoundary'),
  import('../app/apolloClient'),
  import('../modules/shell/components/SidebarContent'),
  import('../modules/auth/components/AuthDialogs'),
  import('../modules/auth/components/SessionRefreshNotice'),
]);

// Routes load their page chunk on first visit; a cold transform in a busy parallel run on the
// shared machine took more than 5 s for a file's first whole-app render (the chunks of its page,
// the session check, the texts): the default one second is far too short.
configure({ asyncUtilTimeout: 15_000 });

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
