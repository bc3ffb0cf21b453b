/**
 * Every path the SPA answers, as react-router patterns (`:name` is one segment). The build writes
 * them to `dist/spa-routes.json`, from which the gateway answers HTTP 404 (still with index.html,
 * so the SPA shows its not-found page) for any other path. `routePaths.test.ts` keeps this list
 * equal to the route table in `routes.tsx`. No imports: vite.config.ts reads it at build time.
 */
export const SPA_ROUTE_PATTERNS = [
  '/',
  '/terms',
  '/cookies',
  '/contact',
  '/email-preferences',
  '/email-opt-out',
  '/dev/inbox',
  '/profile/:username',
  '/profile/:username/ongoing-challenges',
  '/profile/:username/completed-challenges',
  '/profile/:username/uploaded-videos',
  '/profile/:username/respected-videos',
  '/challenge/:slug/detail',
  '/challenge/create',
  '/challenge/create/step-1',
  '/challenge/create/step-2',
  '/login',
  '/login/recover/request',
  '/login/recover/reset',
  '/login/magic-link/verify',
  '/wallet',
  '/wallet/top-up',
  '/wallet/payment-success',
  '/challenge-dashboard',
  '/settings',
  '/settings/edit-profile',
  '/settings/edit-account',
  '/settings/change-password',
  '/settings/edit-payments',
  '/settings/edit-email-preferences',
  '/settings/guidelines',
  '/settings/my-reports',
  '/moderator',
  '/access-denied',
] as const;

/** The file the build writes next to index.html, read by the gateway. */
export const SPA_ROUTES_FILE = 'spa-routes.json';
