import type { MockLink } from '@apollo/client/testing';
import { MockedProvider } from '@apollo/client/testing/react';
import { render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { createMemoryRouter, RouterProvider, type RouteObject } from 'react-router';
import { AppProviders } from '../app/AppProviders';
import { createI18n } from '../app/i18n';
import { appRoutes } from '../app/routes';
import type { AppLanguage } from '../lib/locale';
import type { LocationCheck } from '../modules/location/locationVerdict';
import { createToastStore } from '../ui/toast/toastStore';

export interface RenderOptions {
  path?: string;
  mocks?: ReadonlyArray<MockLink.MockedResponse>;
  language?: AppLanguage;
  routes?: RouteObject[];
  /** The location verdict; tests that do not pass one start with an allowed session. */
  checkLocation?: LocationCheck;
}

/** The same defaults as the real client, so hooks see errors the way they do in the browser. */
const defaultOptions = {
  watchQuery: { errorPolicy: 'all' },
  query: { errorPolicy: 'all' },
  mutate: { errorPolicy: 'all' },
} as const;

function providers(options: RenderOptions, ui: ReactElement) {
  const i18n = createI18n(options.language ?? 'en');
  const toasts = createToastStore();
  const tree = (
    <MockedProvider mocks={options.mocks ?? []} defaultOptions={defaultOptions}>
      <AppProviders
        i18n={i18n}
        toasts={toasts}
        {...(options.checkLocation ? { checkLocation: options.checkLocation } : {})}
      >
        {ui}
      </AppProviders>
    </MockedProvider>
  );
  return { tree, i18n, toasts };
}

/** Renders the whole app (all routes and layouts) in a memory router at `path`. */
export function renderApp(options: RenderOptions = {}) {
  const router = createMemoryRouter(options.routes ?? appRoutes, {
    initialEntries: [options.path ?? '/'],
  });
  const { tree, i18n, toasts } = providers(options, <RouterProvider router={router} />);
  const utils = render(tree);
  return { ...utils, router, i18n, toasts };
}

/** The current URL of a memory router as path + query. */
export function currentUrl(router: ReturnType<typeof createMemoryRouter>): string {
  return `${router.state.location.pathname}${router.state.location.search}`;
}
