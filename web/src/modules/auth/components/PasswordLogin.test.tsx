import { ServerError } from '@apollo/client';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { alice, answerMock, sessionMocks, statusResult } from '../../../test/mocks';
import { currentUrl, renderApp } from '../../../test/renderApp';
import { LoginDocument } from '../graphql/Login';

function loginMock(success: boolean, identifier: string | null, onSuccess?: () => void) {
  return answerMock(LoginDocument, { input: { username: 'alice', password: 'Secret-1' } }, () => {
    if (success) onSuccess?.();
    return { login: statusResult('AccessTokenResult', success, identifier, 'x') };
  });
}

async function logIn() {
  const dialog = await screen.findByRole('dialog', { name: 'Log in with your password' });
  fireEvent.change(within(dialog).getByLabelText('Username or e-mail address'), {
    target: { value: ' alice ' },
  });
  fireEvent.change(within(dialog).getByLabelText('Password'), { target: { value: 'Secret-1' } });
  fireEvent.click(within(dialog).getByRole('button', { name: 'Log in' }));
  return dialog;
}

describe('username and password login', () => {
  it('welcomes back, closes the dialog and shows the logged-in sidebar', async () => {
    const { session, mocks } = sessionMocks(null);
    const { router } = renderApp({
      path: '/cookies?modal=login-username-password',
      mocks: [...mocks, loginMock(true, 'ok', () => (session.user = alice))],
    });
    await logIn();
    expect(await screen.findByText('Welcome back!')).toBeTruthy();
    await waitFor(() => expect(currentUrl(router)).toBe('/cookies'));
    const sidebar = screen.getByRole('complementary', { name: 'Sidebar' });
    expect(await within(sidebar).findByRole('link', { name: /Alice Jansen/ })).toBeTruthy();
  });

  it("takes the account's language at log-in (issue 22, point 14)", async () => {
    const { session, mocks } = sessionMocks(null);
    renderApp({
      path: '/cookies?modal=login-username-password',
      mocks: [...mocks, loginMock(true, 'ok', () => (session.user = { ...alice, locale: 'nl' }))],
    });
    await logIn();
    const sidebar = await screen.findByRole(
      'complementary',
      { name: 'Zijbalk' },
      { timeout: 5000 },
    );
    expect(await within(sidebar).findByRole('link', { name: /Alice Jansen/ })).toBeTruthy();
    expect(document.documentElement.lang).toBe('nl');
  });

  it('says "Login failed: <reason>" on the password field, not in a toast, and stays open', async () => {
    const { mocks } = sessionMocks(null);
    // Spec section 4: a failed login clears the local stores, the create draft included.
    window.localStorage.setItem(
      'challenge-draft',
      JSON.stringify({ name: 'Juggle five balls', timestamp: Date.now() }),
    );
    renderApp({
      path: '/cookies?modal=login-username-password',
      mocks: [...mocks, loginMock(false, 'invalid_credentials')],
    });
    const dialog = await logIn();
    const message = await within(dialog).findByText(
      'Login failed: The username or password is incorrect.',
    );
    const password = within(dialog).getByLabelText('Password');
    expect(password.getAttribute('aria-invalid')).toBe('true');
    expect(password.getAttribute('aria-describedby')).toContain(message.closest('p')?.id);
    await waitFor(() => expect(document.activeElement).toBe(password));
    const toasts = screen.getByRole('region', { name: 'Notifications' });
    expect(within(toasts).queryByText(/Login failed/)).toBeNull();
    // Typing again takes the old verdict away.
    fireEvent.change(password, { target: { value: 'Secret-2' } });
    expect(password.getAttribute('aria-invalid')).toBeNull();
    expect(window.localStorage.getItem('challenge-draft')).toBeNull();
  });

  it('links to the password recovery page', async () => {
    const { mocks } = sessionMocks(null);
    const { router } = renderApp({ path: '/cookies?modal=login-username-password', mocks });
    const dialog = await screen.findByRole('dialog', { name: 'Log in with your password' });
    fireEvent.click(within(dialog).getByRole('link', { name: 'Forgot your password?' }));
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Forgot your password?' }),
    ).toBeTruthy();
    expect(currentUrl(router)).toBe('/login/recover/request');
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});

describe('username and password login refused by the gateway', () => {
  it('names the rate limit instead of an unexpected failure', async () => {
    const { mocks } = sessionMocks(null);
    const body = JSON.stringify({
      errors: [{ message: 'Too many', extensions: { identifier: 'too_many_requests' } }],
    });
    renderApp({
      path: '/cookies?modal=login-username-password',
      mocks: [
        ...mocks,
        {
          request: {
            query: LoginDocument,
            variables: { input: { username: 'alice', password: 'Secret-1' } },
          },
          error: new ServerError('Response not successful: Received status code 429', {
            response: new Response(body, { status: 429 }),
            bodyText: body,
          }),
        },
      ],
    });
    const dialog = await logIn();
    expect(
      (
        await within(dialog).findByText(
          'Login failed: Too many attempts. Please wait a moment and try again.',
        )
      ).closest('[role="alert"]'),
    ).toBeTruthy();
  });
});
