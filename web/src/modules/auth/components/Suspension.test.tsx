import { ApolloLink, ServerError } from '@apollo/client';
import { MockLink } from '@apollo/client/testing';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { createMemoryRouter } from 'react-router';
import { throwError } from 'rxjs';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { App, createApp, type AppInstance } from '../../../app/App';
import { appRoutes } from '../../../app/routes';
import { answerMock, sessionMocks, statusResult } from '../../../test/mocks';
import { renderApp } from '../../../test/renderApp';
import { LoginDocument } from '../graphql/Login';

/**
 * Issue 22, point 4: a banned person saw "Your session has ended", then "Login failed". They are
 * told they are suspended, why (staff's reason, once they proved who they are), what happens to
 * their balance and open payouts, and how to reach support.
 */
describe('a suspended account', () => {
  beforeEach(() => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it("shows staff's reason at log-in instead of 'Login failed'", async () => {
    const { mocks } = sessionMocks(null);
    renderApp({
      path: '/cookies?modal=login-username-password',
      mocks: [
        ...mocks,
        answerMock(LoginDocument, { input: { username: 'alice', password: 'Secret-1' } }, () => ({
          login: {
            ...statusResult(
              'AccessTokenResult',
              false,
              'banned_user',
              'This account has been banned.',
            ),
            suspension: {
              __typename: 'Suspension',
              type: 'soft',
              reason: 'Threatening messages in the comments.',
              since: '2026-11-20T10:00:00.000Z',
            },
          },
        })),
      ],
    });
    const login = await screen.findByRole('dialog', { name: 'Log in with your password' });
    fireEvent.change(within(login).getByLabelText('Username or e-mail address'), {
      target: { value: 'alice' },
    });
    fireEvent.change(within(login).getByLabelText('Password'), { target: { value: 'Secret-1' } });
    fireEvent.click(within(login).getByRole('button', { name: 'Log in' }));

    const dialog = await screen.findByRole('dialog', { name: 'Your account is suspended' });
    expect(within(dialog).getByText(/Threatening messages in the comments\./)).toBeTruthy();
    expect(within(dialog).getByText(/Your balance stays in your wallet/)).toBeTruthy();
    expect(within(dialog).getByText(/Payouts you asked for before/)).toBeTruthy();
    expect(within(dialog).getByRole('link', { name: 'Contact support' }).getAttribute('href')).toBe(
      '/contact',
    );
    expect(screen.queryByText(/Login failed/)).toBeNull();
  });

  it("tells a logged-in person whose account was just suspended, not 'Your session has ended'", async () => {
    const { session, mocks } = sessionMocks();
    const mockLink = new MockLink(mocks);
    const server = new ApolloLink((operation) => {
      if (operation.operationName !== 'Wallet') return mockLink.request(operation);
      session.user = null;
      const body = JSON.stringify({
        errors: [
          {
            message: 'This account has been banned.',
            extensions: { code: 'UNAUTHENTICATED', identifier: 'banned_user' },
          },
        ],
      });
      return throwError(
        () =>
          new ServerError('Response not successful: Received status code 401', {
            response: new Response(body, { status: 401 }),
            bodyText: body,
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
    // Apollo loads with the first page (docs/adr/0081); loaded first, React's test mode has no
    // client to wait for (it never retries a component that waited for one outside an awaited act).
    await app.apollo.load();
    render(<App app={app} />);
    const sidebar = await screen.findByRole('complementary', { name: 'Sidebar' });
    expect(await within(sidebar).findByRole('link', { name: 'Wallet' })).toBeTruthy();
    await app.router.navigate('/wallet');

    const dialog = await screen.findByRole('dialog', { name: 'Your account is suspended' });
    expect(within(dialog).getByText(/Log in again to read the reason/)).toBeTruthy();
    expect(screen.queryByText('Your session has ended. Please log in again.')).toBeNull();
    await waitFor(() =>
      expect(JSON.stringify(app.apollo.current()?.cache.extract())).not.toContain('alice'),
    );
  });
});
