import { ApolloLink, ServerError } from '@apollo/client';
import { MockLink } from '@apollo/client/testing';
import { render, screen, waitFor, within } from '@testing-library/react';
import { createMemoryRouter } from 'react-router';
import { throwError } from 'rxjs';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { sessionMocks } from '../test/mocks';
import { App, createApp, type AppInstance } from './App';
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
    const mockLink = new MockLink(mocks);
    // The session expires on the server: the wallet request is answered with HTTP 401, and from
    // then on the server sees a logged-out visitor.
    const server = new ApolloLink((operation) => {
      if (operation.operationName !== 'Wallet') return mockLink.request(operation);
      session.user = null;
      const response = new Response('', { status: 401 });
      return throwError(
        () =>
          new ServerError('Response not successful: Received status code 401', {
            response,
            bodyText: '',
          }),
      );
    });
    const app: AppInstance = createApp({
      createRouter: () =>
        createMemoryRouter(appRoutes, {
          initialEntries: ['/challenge-dashboard'],
        }) as AppInstance['router'],
      terminatingLink: server,
      language: 'en',
    });
    render(<App app={app} />);
    const sidebar = await screen.findByRole('complementary', { name: 'Sidebar' });
    expect(await within(sidebar).findByRole('link', { name: 'Wallet' })).toBeTruthy();

    await app.router.navigate('/wallet');

    await waitFor(() =>
      expect(app.router.state.location.pathname).toBe('/challenge/create/step-1'),
    );
    expect(await within(sidebar).findByRole('button', { name: 'Log in' })).toBeTruthy();
    expect(within(sidebar).queryByRole('link', { name: 'Wallet' })).toBeNull();
    // Nothing of the old session is left in the cache.
    expect(JSON.stringify(app.client.cache.extract())).not.toContain('alice');
  });
});
