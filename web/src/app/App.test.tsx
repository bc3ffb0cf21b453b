import { ServerError } from '@apollo/client';
import { MockLink } from '@apollo/client/testing';
import { render, screen, waitFor, within } from '@testing-library/react';
import { createMemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { WalletDocument } from '../modules/wallet/graphql/Wallet';
import { sessionMocks } from '../test/mocks';
import { App, createApp } from './App';
import { appRoutes } from './routes';

describe('app composition', () => {
  beforeEach(() => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('on a 401 clears the cached session and sends the user to /challenge/create', async () => {
    const { session, mocks } = sessionMocks();
    const unauthorized = {
      request: { query: WalletDocument },
      error: new ServerError('Response not successful', { response: new Response('', { status: 401 }), bodyText: '' }),
      // The session ends on the server side at the same moment.
      delay: 0,
    };
    const app = createApp({
      createRouter: () => createMemoryRouter(appRoutes, { initialEntries: ['/wallet'] }) as ReturnType<typeof createApp>['router'],
      terminatingLink: new MockLink([...mocks, unauthorized]),
      language: 'en',
    });
    // The cookie expired: from now on the server sees a logged-out visitor.
    const expire = () => {
      session.user = null;
    };
    render(<App app={app} />);
    const sidebar = await screen.findByRole('complementary', { name: 'Sidebar' });
    expect(await within(sidebar).findByRole('link', { name: 'Wallet' })).toBeTruthy();
    expire();

    await waitFor(() => expect(app.router.state.location.pathname).toBe('/challenge/create/step-1'));
    expect(await within(sidebar).findByRole('button', { name: 'Log in' })).toBeTruthy();
    expect(within(sidebar).queryByRole('link', { name: 'Wallet' })).toBeNull();
  });
});
