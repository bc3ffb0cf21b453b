import { ApolloLink, ServerError } from '@apollo/client';
import { MockLink } from '@apollo/client/testing';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { createMemoryRouter } from 'react-router';
import { throwError } from 'rxjs';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { VerifyLoginCodeDocument } from '../modules/auth/graphql/VerifyLoginCode';
import { answerMock, sessionMocks, statusResult } from '../test/mocks';
import { App, createApp, type AppInstance } from './App';
import { appRoutes } from './routes';

describe('app composition', () => {
  beforeEach(() => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('on a 401 clears the cached session and sends the user to /challenge/create to log in', async () => {
    const { session, mocks } = sessionMocks();
    const mockLink = new MockLink(mocks);
    // Spec section 4: a 401 clears all stores, the create draft included.
    window.localStorage.setItem(
      'challenge-draft',
      JSON.stringify({ name: 'Juggle five balls', timestamp: Date.now() }),
    );
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
    // Apollo loads with the first page (docs/adr/0081); loaded first, React's test mode has no
    // client to wait for (it never retries a component that waited for one outside an awaited act).
    await app.apollo.load();
    render(<App app={app} />);
    const sidebar = await screen.findByRole('complementary', { name: 'Sidebar' });
    // The first whole-app render of the file loads every chunk it needs: seconds under load.
    expect(
      await within(sidebar).findByRole('link', { name: 'Wallet' }, { timeout: 15_000 }),
    ).toBeTruthy();

    await app.router.navigate('/wallet');

    await waitFor(() =>
      expect(app.router.state.location.pathname).toBe('/challenge/create/step-1'),
    );
    expect(await within(sidebar).findByRole('button', { name: 'Log in' })).toBeTruthy();
    expect(within(sidebar).queryByRole('link', { name: 'Wallet' })).toBeNull();
    // The log-in dialog is open there, and a notice says why: the user can go on at once.
    expect(await screen.findByRole('dialog', { name: 'Log in or sign up' })).toBeTruthy();
    expect(await screen.findByText('Your session has ended. Please log in again.')).toBeTruthy();
    // Nothing of the old session is left in the cache.
    const client = await app.apollo.load();
    expect(JSON.stringify(client.cache.extract())).not.toContain('alice');
    expect(window.localStorage.getItem('challenge-draft')).toBeNull();
  });

  it('on a 401 also forgets a sign-up in progress', async () => {
    const email = 'new@example.com';
    const { mocks } = sessionMocks(null);
    const mockLink = new MockLink([
      ...mocks,
      answerMock(
        VerifyLoginCodeDocument,
        { input: { email, code: '123456' } },
        {
          verifyLoginCode: {
            ...statusResult('VerifyLoginResult', true),
            isVerified: false,
            originUrl: null,
          },
        },
      ),
    ]);
    let expired = false;
    const server = new ApolloLink((operation) => {
      if (!expired) return mockLink.request(operation);
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
          initialEntries: [`/cookies?modal=login-magic-link&email=${encodeURIComponent(email)}`],
        }) as AppInstance['router'],
      terminatingLink: server,
      language: 'en',
    });
    // Apollo loads with the first page (docs/adr/0081); loaded first, React's test mode has no
    // client to wait for (it never retries a component that waited for one outside an awaited act).
    await app.apollo.load();
    render(<App app={app} />);
    const codeStep = await screen.findByRole('dialog', { name: 'Check your inbox' });
    const input = within(codeStep).getByLabelText('Login code');
    fireEvent.change(input, { target: { value: '123456' } });
    fireEvent.submit(input.closest('form') as HTMLFormElement);
    expect(await screen.findByRole('dialog', { name: 'Complete your account' })).toBeTruthy();

    // Any request now meets a 401 (e.g. a refetch of the current user).
    expired = true;
    void (await app.apollo.load()).refetchQueries({ include: 'all' });

    await waitFor(() =>
      expect(app.router.state.location.pathname).toBe('/challenge/create/step-1'),
    );
    await waitFor(() =>
      expect(screen.queryByRole('dialog', { name: 'Complete your account' })).toBeNull(),
    );
    await app.router.navigate('/cookies');
    expect(await screen.findByRole('heading', { level: 1, name: 'Cookie policy' })).toBeTruthy();
    expect(screen.queryByRole('dialog', { name: 'Complete your account' })).toBeNull();
  });
});
