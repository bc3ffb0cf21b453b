import { StrictMode, startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { App, createApp } from './app/App';
import { reloadForNewBuild } from './app/chunkReload';
import {
  loadTranslations,
  readStoredLanguage,
  rememberLanguageForServer,
  showLanguage,
} from './app/i18n';
import { isAppLanguage } from './lib/locale';
import { hasAllowedLocation, rememberAllowedLocation } from './modules/location/locationVerdict';
import './ui/theme.css';

// A chunk of an older build is gone after a deploy: load the new build (guarded against loops).
window.addEventListener('vite:preloadError', (event) => {
  if (reloadForNewBuild()) event.preventDefault();
});

/** Lets the browser run what waits (input, a paint) before the next step. */
const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');

// A page the build prerendered (docs/adr/0081), which the gateway sends in the language of the
// `language` cookie: it hydrates in the language it shows, and then turns to the browser's
// choice should that differ (a choice made before the cookie existed).
const prerendered = container.firstElementChild !== null;
const chosen = readStoredLanguage();
const shown = document.documentElement.lang;
const language = prerendered && isAppLanguage(shown) ? shown : chosen;
rememberLanguageForServer(chosen);
// The gateway's verdict came with the page: no second question this session.
if (hasAllowedLocation()) rememberAllowedLocation();

// The shell's texts only: the pages' load with their code (app/translationParts.ts).
await loadTranslations(language, ['shell']);
const app = createApp({ language });
const tree = (
  <StrictMode>
    <App app={app} />
  </StrictMode>
);
// Creating the app (the router's route table, i18next), starting hydration and asking for Apollo
// are each a task of their own, so that none adds to another's time without a break for the
// browser (a task over 50 ms blocks input; docs/adr/0101).
await nextTask();
// Hydration as a transition: React yields to the browser every few milliseconds rather than
// hydrating the whole page in one long task (a page the prerender painted shows meanwhile;
// docs/adr/0099).
if (prerendered) startTransition(() => void hydrateRoot(container, tree));
else createRoot(container).render(tree);
await nextTask();
// The sidebar and the page read data: Apollo loads beside their code, not before the shell.
void app.apollo.load().catch(() => undefined);
if (language !== chosen) void showLanguage(app.i18n, chosen);
