import type { ApolloLink } from '@apollo/client';
import { useState } from 'react';
import { createBrowserRouter, RouterProvider } from 'react-router';
import type { AppLanguage } from '../lib/locale';
import { createVerifyingUserStore } from '../modules/auth/components/VerifyingUserProvider';
import { setSuspensionNotice } from '../modules/auth/suspension';
import { createToastStore } from '../ui/toast/toastStore';
import { createApolloClient, createUnauthorizedHandler } from './apolloClient';
import { AppProviders } from './AppProviders';
import { createI18n } from './i18n';
import { appRoutes } from './routes';

/**
 * Where a user lands after the server said the session is gone (401): the spec's
 * /challenge/create (its first step), with the log-in dialog open (docs/adr/0061).
 */
export const UNAUTHORIZED_REDIRECT = '/challenge/create/step-1?modal=login-magic-link';
/** Where a suspended person lands: the home page with the suspension dialog (issue 22). */
export const SUSPENDED_REDIRECT = '/?modal=suspended';

type AppRouter = ReturnType<typeof createBrowserRouter>;

export interface CreateAppOptions {
  /** Defaults to the browser router over all app routes; tests pass a memory router. */
  createRouter?: () => AppRouter;
  /** Replaces the HTTP transport (tests). */
  terminatingLink?: ApolloLink;
  language?: AppLanguage;
}

/** The composition root: i18n, toasts, router and the Apollo client, wired together. */
export function createApp({
  createRouter = () => createBrowserRouter(appRoutes),
  terminatingLink,
  language,
}: CreateAppOptions = {}) {
  const i18n = createI18n(language);
  const toasts = createToastStore();
  const verifyingUser = createVerifyingUserStore();
  const router = createRouter();
  const client = createApolloClient({
    toasts,
    i18n,
    ...(terminatingLink ? { terminatingLink } : {}),
    // A 401 means the session is gone: clear everything cached for it, and a sign-up in
    // progress with it (spec: "clears all stores"), and start over.
    onUnauthorized: createUnauthorizedHandler(
      () => client.resetStore(),
      (identifier) => {
        verifyingUser.set(null);
        if (identifier === 'banned_user') {
          // Not "your session has ended": the dialog says the account is suspended.
          setSuspensionNotice({ kind: 'unknown' });
          void router.navigate(SUSPENDED_REDIRECT);
          return;
        }
        void router.navigate(UNAUTHORIZED_REDIRECT);
        // Says why the log-in dialog is open (not shown to a visitor: a 401 answers a token).
        toasts.info(i18n.t('auth.toast.sessionEnded'));
      },
    ),
  });
  return { i18n, toasts, router, client, verifyingUser };
}

export type AppInstance = ReturnType<typeof createApp>;

export function App({ app: given }: { app?: AppInstance }) {
  const [app] = useState(() => given ?? createApp());
  return (
    <AppProviders
      i18n={app.i18n}
      toasts={app.toasts}
      client={app.client}
      verifyingUser={app.verifyingUser}
    >
      <RouterProvider router={app.router} />
    </AppProviders>
  );
}
