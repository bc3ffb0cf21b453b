import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { answerMock, loggedOutMock, sessionMocks, statusResult } from '../../../test/mocks';
import { currentUrl, renderApp } from '../../../test/renderApp';
import { RequestForgotPasswordLinkDocument } from '../graphql/RequestForgotPasswordLink';
import {
  ResetForgottenPasswordDocument,
  type ResetForgottenPasswordMutationVariables,
} from '../graphql/ResetForgottenPassword';

describe('/login/recover/request', () => {
  it.each([
    ['an account', true, null],
    ['no account (or a refusal)', false, 'invalid_input'],
  ])('gives the same neutral confirmation for %s', async (_case, success, identifier) => {
    renderApp({
      path: '/login/recover/request',
      mocks: [
        loggedOutMock(),
        answerMock(
          RequestForgotPasswordLinkDocument,
          { input: { email: 'sam@example.com' } },
          {
            requestForgotPasswordLink: statusResult('StatusResult', success, identifier, 'x'),
          },
        ),
      ],
    });
    const input = await screen.findByLabelText('E-mail address');
    fireEvent.change(input, { target: { value: ' sam@example.com ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send me a reset link' }));
    const status = await screen.findByRole('status', { name: 'Check your inbox' });
    expect(status.textContent).toContain(
      "If there is an account for sam@example.com, we've sent it a link",
    );
  });

  it('works for a logged-in user: the change-password page links there, and it leads back', async () => {
    const { mocks } = sessionMocks();
    const { router } = renderApp({
      path: '/settings/change-password',
      mocks: [
        ...mocks,
        answerMock(
          RequestForgotPasswordLinkDocument,
          { input: { email: 'alice@example.com' } },
          { requestForgotPasswordLink: statusResult('StatusResult', true) },
        ),
      ],
    });
    fireEvent.click(await screen.findByRole('link', { name: 'Forgot your password?' }));
    const input = await screen.findByLabelText('E-mail address');
    expect(currentUrl(router)).toBe('/login/recover/request');
    // Not "Back to log in": this person is logged in.
    expect(screen.queryByRole('button', { name: 'Back to log in' })).toBeNull();
    expect(screen.getByRole('link', { name: 'Back to change password' })).toBeTruthy();
    fireEvent.change(input, { target: { value: 'alice@example.com' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send me a reset link' }));
    const status = await screen.findByRole('status', { name: 'Check your inbox' });
    expect(status.textContent).toContain('If there is an account for alice@example.com');
    fireEvent.click(within(status).getByRole('link', { name: 'Back to change password' }));
    await waitFor(() => expect(currentUrl(router)).toBe('/settings/change-password'));
  });

  it('asks to wait when too many links were requested', async () => {
    renderApp({
      path: '/login/recover/request',
      mocks: [
        loggedOutMock(),
        answerMock(
          RequestForgotPasswordLinkDocument,
          { input: { email: 'sam@example.com' } },
          {
            requestForgotPasswordLink: statusResult('StatusResult', false, 'too_many_requests'),
          },
        ),
      ],
    });
    fireEvent.change(await screen.findByLabelText('E-mail address'), {
      target: { value: 'sam@example.com' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Send me a reset link' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Too many attempts. Please wait a moment and try again.',
    );
  });
});

describe('/login/recover/reset', () => {
  const resetMock = (
    success: boolean,
    identifier: string | null,
    sent: ResetForgottenPasswordMutationVariables[] = [],
  ) =>
    answerMock<ResetForgottenPasswordMutationVariables>(
      ResetForgottenPasswordDocument,
      () => true,
      { resetForgottenPassword: statusResult('StatusResult', success, identifier, 'x') },
      { onVariables: (variables) => sent.push(variables) },
    );

  async function choose(password: string, repeat: string) {
    fireEvent.change(await screen.findByLabelText('New password'), {
      target: { value: password },
    });
    fireEvent.change(screen.getByLabelText('Repeat password'), { target: { value: repeat } });
  }

  it('applies the password rules before anything is sent', async () => {
    renderApp({ path: '/login/recover/reset?token=tok-1', mocks: [loggedOutMock()] });
    await choose('weak', 'weak');
    const submit = screen.getByRole<HTMLButtonElement>('button', { name: 'Save my new password' });
    expect(submit.disabled).toBe(true);
    expect(
      screen.getByText(/Your password must have at least 8 characters, with an uppercase letter/),
    ).toBeTruthy();
    await choose('Str0ng!pass', 'Str0ng!pasS');
    expect(screen.getByText('Passwords do not match')).toBeTruthy();
    expect(submit.disabled).toBe(true);
  });

  it('on success says so and opens the username-password dialog', async () => {
    const sent: ResetForgottenPasswordMutationVariables[] = [];
    const { router } = renderApp({
      path: '/login/recover/reset?token=tok-1',
      mocks: [loggedOutMock(), resetMock(true, 'ok', sent)],
    });
    await choose('Str0ng!pass', 'Str0ng!pass');
    fireEvent.click(screen.getByRole('button', { name: 'Save my new password' }));
    expect(
      await screen.findByText('Your password has been changed. Log in with your new password.'),
    ).toBeTruthy();
    expect(sent).toEqual([
      { input: { token: 'tok-1', password: 'Str0ng!pass', repeatPassword: 'Str0ng!pass' } },
    ]);
    expect(await screen.findByRole('dialog', { name: 'Log in with your password' })).toBeTruthy();
    // The spent token leaves the URL.
    expect(currentUrl(router)).toBe('/login/recover/reset?modal=login-username-password');
  });

  it.each([
    ['expired_credentials', 'This reset link has expired'],
    ['invalid_credentials', "This reset link doesn't work"],
  ])('%s: explains and links to a new request', async (identifier, title) => {
    const { router } = renderApp({
      path: '/login/recover/reset?token=tok-1',
      mocks: [loggedOutMock(), resetMock(false, identifier)],
    });
    await choose('Str0ng!pass', 'Str0ng!pass');
    fireEvent.click(screen.getByRole('button', { name: 'Save my new password' }));
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByRole('heading', { name: title })).toBeTruthy();
    fireEvent.click(within(alert).getByRole('link', { name: 'Request a new reset link' }));
    await waitFor(() => expect(currentUrl(router)).toBe('/login/recover/request'));
  });

  it('without a token points to a new request straight away', async () => {
    renderApp({ path: '/login/recover/reset', mocks: [loggedOutMock()] });
    expect(
      await screen.findByRole('heading', { level: 1, name: 'This reset link is incomplete' }),
    ).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Request a new reset link' })).toBeTruthy();
  });
});
