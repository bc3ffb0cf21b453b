import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { loggedOutMock, statusOf } from '../../../test/mocks';
import { currentUrl, renderApp } from '../../../test/renderApp';
import { RequestLoginLinkDocument } from '../graphql/RequestLoginLink';

const magicLinkDialog = () => screen.findByRole('dialog', { name: 'Log in or sign up' });
const passwordDialog = () => screen.findByRole('dialog', { name: 'Log in with your password' });

function requestLoginLinkMock(email: string, success = true) {
  return {
    request: {
      query: RequestLoginLinkDocument,
      variables: { input: { email, originUrl: '/terms' } },
    },
    result: {
      data: {
        requestLoginLink: {
          __typename: 'RequestLoginLinkResult',
          email,
          status: success ? statusOf(true) : statusOf(false, 'too_many_requests', 'Slow down'),
        },
      },
    },
  };
}

describe('dialog routing by ?modal=', () => {
  it('opens the dialog named in the URL', async () => {
    renderApp({ path: '/terms?modal=login-magic-link', mocks: [loggedOutMock()] });
    const dialog = await magicLinkDialog();
    expect(dialog.getAttribute('aria-modal')).toBe('true');
    expect(within(dialog).getByLabelText('E-mail address')).toBeTruthy();
  });

  it('switches between the two login dialogs by changing the modal value', async () => {
    const { router } = renderApp({
      path: '/terms?modal=login-magic-link',
      mocks: [loggedOutMock()],
    });
    fireEvent.click(
      within(await magicLinkDialog()).getByRole('button', { name: 'Log in with a password' }),
    );
    expect(currentUrl(router)).toBe('/terms?modal=login-username-password');
    const dialog = await passwordDialog();
    expect(screen.queryByRole('dialog', { name: 'Log in or sign up' })).toBeNull();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Log in with an e-mail link' }));
    expect(currentUrl(router)).toBe('/terms?modal=login-magic-link');
    expect(await magicLinkDialog()).toBeTruthy();
  });

  it('closing with the close button clears the parameter and keeps the rest of the URL', async () => {
    const { router } = renderApp({
      path: '/?discover=duel&modal=login-username-password',
      mocks: [loggedOutMock()],
    });
    fireEvent.click(within(await passwordDialog()).getByRole('button', { name: 'Close dialog' }));
    expect(currentUrl(router)).toBe('/?discover=duel');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('closing with Escape or a click outside clears the parameter too', async () => {
    const { router } = renderApp({
      path: '/terms?modal=login-magic-link',
      mocks: [loggedOutMock()],
    });
    fireEvent.keyDown(await magicLinkDialog(), { key: 'Escape' });
    expect(currentUrl(router)).toBe('/terms');

    await router.navigate('/terms?modal=login-magic-link');
    await magicLinkDialog();
    const backdrop = screen.getByTestId('modal-backdrop');
    fireEvent.mouseDown(backdrop);
    fireEvent.click(backdrop);
    expect(currentUrl(router)).toBe('/terms');
  });

  it('gives focus back to the button that opened it, after a switch between the two dialogs too', async () => {
    renderApp({ path: '/terms', mocks: [loggedOutMock()] });
    const sidebar = await screen.findByRole('complementary', { name: 'Sidebar' });
    const opener = await within(sidebar).findByRole('button', { name: 'Log in' });
    opener.focus();
    fireEvent.click(opener);
    fireEvent.keyDown(await magicLinkDialog(), { key: 'Escape' });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(document.activeElement).toBe(opener);

    opener.focus();
    fireEvent.click(opener);
    const switchButton = within(await magicLinkDialog()).getByRole('button', {
      name: 'Log in with a password',
    });
    switchButton.focus();
    fireEvent.click(switchButton);
    fireEvent.keyDown(await passwordDialog(), { key: 'Escape' });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(document.activeElement).toBe(opener);
  });

  it('ignores an unknown modal value', async () => {
    renderApp({ path: '/terms?modal=something-else', mocks: [loggedOutMock()] });
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Terms and conditions' }),
    ).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('never shows complete-account on /terms, but does elsewhere', async () => {
    const { router } = renderApp({
      path: '/terms?modal=complete-account',
      mocks: [loggedOutMock()],
    });
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Terms and conditions' }),
    ).toBeTruthy();
    expect(screen.queryByRole('dialog', { name: 'Complete your account' })).toBeNull();
    await router.navigate('/cookies?modal=complete-account');
    expect(await screen.findByRole('dialog', { name: 'Complete your account' })).toBeTruthy();
  });
});

describe('magic-link form', () => {
  it('says "Value is not a valid email address" on the field when sent, and keeps focus there', async () => {
    renderApp({ path: '/terms?modal=login-magic-link', mocks: [loggedOutMock()] });
    const dialog = await magicLinkDialog();
    const input = within(dialog).getByLabelText<HTMLInputElement>('E-mail address');
    const submit = within(dialog).getByRole<HTMLButtonElement>('button', {
      name: 'Send me a login link',
    });
    // Not in error before anything was typed or sent.
    expect(input.getAttribute('aria-invalid')).toBeNull();

    fireEvent.change(input, { target: { value: 'sam@example' } });
    expect(within(dialog).queryByText('Value is not a valid email address')).toBeNull();
    // A disabled button would swallow Enter and the click without a word.
    submit.focus();
    fireEvent.click(submit);
    const message = await within(dialog).findByText('Value is not a valid email address');
    expect(input.getAttribute('aria-invalid')).toBe('true');
    expect(input.getAttribute('aria-describedby')).toContain(message.closest('p')?.id);
    await waitFor(() => expect(document.activeElement).toBe(input));

    fireEvent.change(input, { target: { value: 'sam@example.com' } });
    expect(within(dialog).queryByText('Value is not a valid email address')).toBeNull();
  });

  it('asks for the e-mail address when sent empty', async () => {
    renderApp({ path: '/terms?modal=login-magic-link', mocks: [loggedOutMock()] });
    const dialog = await magicLinkDialog();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Send me a login link' }));
    expect(await within(dialog).findByText('Value is required')).toBeTruthy();
  });

  it('submits on Enter, then puts the e-mail in the URL and asks for the code', async () => {
    const { router } = renderApp({
      path: '/terms?modal=login-magic-link',
      mocks: [loggedOutMock(), requestLoginLinkMock('sam@example.com')],
    });
    const input = within(await magicLinkDialog()).getByLabelText('E-mail address');
    fireEvent.change(input, { target: { value: 'sam@example.com' } });
    fireEvent.submit(input.closest('form') as HTMLFormElement);

    const codeStep = await screen.findByRole('dialog', { name: 'Check your inbox' });
    expect(within(codeStep).getByText('sam@example.com').closest('p')?.textContent).toBe(
      'We sent a login link and a code to sam@example.com.',
    );
    expect(new URLSearchParams(router.state.location.search).get('email')).toBe('sam@example.com');
    expect(new URLSearchParams(router.state.location.search).get('modal')).toBe('login-magic-link');
  });

  it('shows the translated server error and stays on the e-mail step when the request is refused', async () => {
    const { router } = renderApp({
      path: '/terms?modal=login-magic-link',
      mocks: [loggedOutMock(), requestLoginLinkMock('sam@example.com', false)],
    });
    const input = within(await magicLinkDialog()).getByLabelText('E-mail address');
    fireEvent.change(input, { target: { value: 'sam@example.com' } });
    fireEvent.submit(input.closest('form') as HTMLFormElement);

    expect(
      await screen.findByText('Too many attempts. Please wait a moment and try again.'),
    ).toBeTruthy();
    expect(new URLSearchParams(router.state.location.search).get('email')).toBeNull();
    expect(screen.getByRole('dialog', { name: 'Log in or sign up' })).toBeTruthy();
  });
});

describe('username and password form', () => {
  it('says which field is missing when sent, and focuses it', async () => {
    renderApp({ path: '/terms?modal=login-username-password', mocks: [loggedOutMock()] });
    const dialog = await passwordDialog();
    const username = within(dialog).getByLabelText('Username or e-mail address');
    fireEvent.change(username, { target: { value: 'sam' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Log in' }));
    const password = within(dialog).getByLabelText('Password');
    await waitFor(() => expect(password.getAttribute('aria-invalid')).toBe('true'));
    expect(within(dialog).getByText('Value is required')).toBeTruthy();
    await waitFor(() => expect(document.activeElement).toBe(password));
  });

  it('toggles the password between hidden and visible', async () => {
    renderApp({ path: '/terms?modal=login-username-password', mocks: [loggedOutMock()] });
    const dialog = await passwordDialog();
    const password = within(dialog).getByLabelText<HTMLInputElement>('Password');
    expect(password.type).toBe('password');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Show password' }));
    expect(password.type).toBe('text');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Hide password' }));
    expect(password.type).toBe('password');
  });
});
