import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { MockLink } from '@apollo/client/testing';
import { describe, expect, it } from 'vitest';
import { formatCalendarDate } from '../../../lib/dates';
import { alice, answerMock, sessionMocks, statusOf, statusResult } from '../../../test/mocks';
import { currentUrl, renderApp } from '../../../test/renderApp';
import type { CurrentUserProfile } from '../graphql/CurrentUser';
import { VerifyLoginCodeDocument } from '../graphql/VerifyLoginCode';
import { VerifyUserDocument, type VerifyUserMutationVariables } from '../graphql/VerifyUser';

const EMAIL = 'sam@example.com';
const CODE = '123456';
const sam: CurrentUserProfile = { ...alice, id: 'u-9', username: 'sam', displayName: null };

/** A birthday `years` years before today, shifted by `days` (local calendar). */
function birthdayYearsAgo(years: number, days = 0): string {
  const now = new Date();
  const date = new Date(now.getFullYear() - years, now.getMonth(), now.getDate() + days);
  return formatCalendarDate({
    year: date.getFullYear(),
    month: date.getMonth() + 1,
    day: date.getDate(),
  });
}

function verifyLoginCodeMock(
  outcome: { isVerified: boolean | null; originUrl?: string | null; identifier?: string },
  onAnswer?: () => void,
): MockLink.MockedResponse {
  const success = !outcome.identifier;
  return answerMock(VerifyLoginCodeDocument, { input: { email: EMAIL, code: CODE } }, () => {
    onAnswer?.();
    return {
      verifyLoginCode: {
        __typename: 'VerifyLoginResult',
        isVerified: success ? outcome.isVerified : null,
        originUrl: outcome.originUrl ?? null,
        status: success ? statusOf(true, 'ok', 'OK') : statusOf(false, outcome.identifier, 'x'),
      },
    };
  });
}

async function enterCode() {
  const dialog = await screen.findByRole('dialog', { name: 'Check your inbox' });
  const input = within(dialog).getByLabelText('Login code');
  fireEvent.change(input, { target: { value: CODE } });
  fireEvent.submit(input.closest('form') as HTMLFormElement);
}

/** Starts on `path` with the code step open, and gets to the complete-account form by code. */
async function signUpByCode(mocks: MockLink.MockedResponse[] = [], path = '/cookies') {
  const { session, mocks: sessionHandlers } = sessionMocks(null);
  const rendered = renderApp({
    path: `${path}?modal=login-magic-link&email=${encodeURIComponent(EMAIL)}`,
    mocks: [...sessionHandlers, verifyLoginCodeMock({ isVerified: false }), ...mocks],
  });
  await enterCode();
  const dialog = await screen.findByRole('dialog', { name: 'Complete your account' });
  return { ...rendered, session, dialog };
}

interface FormInput {
  username?: string;
  birthday?: string;
  password?: string;
  repeatPassword?: string;
  phoneNumber?: string;
  acceptTerms?: boolean;
}

function fill(dialog: HTMLElement, input: FormInput) {
  const field = (label: string, value: string | undefined) => {
    if (value === undefined) return;
    const element = within(dialog).getByLabelText(label);
    fireEvent.change(element, { target: { value } });
    fireEvent.blur(element);
  };
  field('Username', input.username);
  field('Birthday', input.birthday);
  field('Password', input.password);
  field('Repeat password', input.repeatPassword);
  field('Phone number (optional)', input.phoneNumber);
  if (input.acceptTerms !== undefined) {
    const terms = within(dialog).getByRole<HTMLInputElement>('checkbox', {
      name: /I accept the terms and conditions/,
    });
    if (terms.checked !== input.acceptTerms) fireEvent.click(terms);
  }
}

const COMPLETE: Required<FormInput> = {
  username: 'sam',
  birthday: birthdayYearsAgo(30),
  password: 'Str0ng!pass',
  repeatPassword: 'Str0ng!pass',
  phoneNumber: '',
  acceptTerms: true,
};

const submitButton = (dialog: HTMLElement) =>
  within(dialog).getByRole<HTMLButtonElement>('button', { name: 'Create my account' });
const listedErrors = (dialog: HTMLElement) =>
  within(dialog)
    .queryAllByRole('listitem')
    .map((item) => item.textContent);

function verifyUserMock(
  answer: { success: true } | { identifier: string | null; message?: string | null },
  captured: VerifyUserMutationVariables[],
  onSuccess?: () => void,
) {
  return answerMock<VerifyUserMutationVariables>(
    VerifyUserDocument,
    () => true,
    () => {
      if ('success' in answer) {
        onSuccess?.();
        return { verifyUser: statusResult('AccessTokenResult', true) };
      }
      return {
        verifyUser: statusResult('AccessTokenResult', false, answer.identifier, answer.message),
      };
    },
    { onVariables: (variables) => captured.push(variables) },
  );
}

describe('magic-link code step', () => {
  it('isVerified true: reloads the profile, welcomes back and goes to the original page', async () => {
    const { session, mocks } = sessionMocks(null);
    const { router } = renderApp({
      path: `/terms?modal=login-magic-link&email=${encodeURIComponent(EMAIL)}`,
      mocks: [
        ...mocks,
        verifyLoginCodeMock({ isVerified: true, originUrl: '/cookies' }, () => {
          session.user = sam;
        }),
      ],
    });
    const sidebar = await screen.findByRole('complementary', { name: 'Sidebar' });
    expect(await within(sidebar).findByRole('button', { name: 'Log in' })).toBeTruthy();
    await enterCode();

    expect(await screen.findByText('Welcome back!')).toBeTruthy();
    await waitFor(() => expect(currentUrl(router)).toBe('/cookies'));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(await within(sidebar).findByRole('link', { name: /@sam/ })).toBeTruthy();
  });

  it('isVerified true without another page to go to: stays, and the e-mail leaves the URL', async () => {
    const { session, mocks } = sessionMocks(null);
    const { router } = renderApp({
      path: `/terms?modal=login-magic-link&email=${encodeURIComponent(EMAIL)}`,
      mocks: [
        ...mocks,
        verifyLoginCodeMock({ isVerified: true, originUrl: '/terms' }, () => {
          session.user = sam;
        }),
      ],
    });
    await enterCode();
    expect(await screen.findByText('Welcome back!')).toBeTruthy();
    await waitFor(() => expect(currentUrl(router)).toBe('/terms'));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('isVerified false: opens complete-account with the e-mail, keeping the code in memory only', async () => {
    const { router, dialog } = await signUpByCode();
    expect(currentUrl(router)).toBe('/cookies?modal=complete-account');
    expect(within(dialog).getByText(EMAIL).closest('p')?.textContent).toContain(
      `signing up with ${EMAIL}`,
    );
    expect(router.state.location.search).not.toContain(CODE);
    expect(screen.queryByText('Welcome back!')).toBeNull();
  });

  it('a sign-up in progress hides on /terms and comes back elsewhere', async () => {
    const { router } = await signUpByCode();
    await router.navigate('/terms');
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Terms and conditions' }),
    ).toBeTruthy();
    expect(screen.queryByRole('dialog', { name: 'Complete your account' })).toBeNull();
    await router.navigate('/cookies');
    const dialog = await screen.findByRole('dialog', { name: 'Complete your account' });
    expect(within(dialog).getByLabelText('Username')).toBeTruthy();
  });

  it('a wrong code keeps the code step open with the reason', async () => {
    const { mocks } = sessionMocks(null);
    // Spec section 4: a failed login clears the local stores, the create draft included.
    window.localStorage.setItem(
      'challenge-draft',
      JSON.stringify({ name: 'Juggle five balls', timestamp: Date.now() }),
    );
    renderApp({
      path: `/cookies?modal=login-magic-link&email=${encodeURIComponent(EMAIL)}`,
      mocks: [
        ...mocks,
        verifyLoginCodeMock({ isVerified: null, identifier: 'invalid_credentials' }),
      ],
    });
    await enterCode();
    const dialog = screen.getByRole('dialog', { name: 'Check your inbox' });
    // On the field itself (not only in a toast that leaves after five seconds).
    const message = await within(dialog).findByText(
      'That code is not right. Check the code in the e-mail and try again.',
    );
    const code = within(dialog).getByLabelText('Login code');
    expect(code.getAttribute('aria-invalid')).toBe('true');
    expect(code.getAttribute('aria-describedby')).toContain(message.closest('p')?.id);
    const toasts = screen.getByRole('region', { name: 'Notifications' });
    expect(within(toasts).queryByText(/That code is not right/)).toBeNull();
    expect(screen.queryByText('The username or password is incorrect.')).toBeNull();
    expect(window.localStorage.getItem('challenge-draft')).toBeNull();
  });

  it('an expired code says so, not that a password is wrong', async () => {
    const { mocks } = sessionMocks(null);
    renderApp({
      path: `/cookies?modal=login-magic-link&email=${encodeURIComponent(EMAIL)}`,
      mocks: [
        ...mocks,
        verifyLoginCodeMock({ isVerified: null, identifier: 'expired_credentials' }),
      ],
    });
    await enterCode();
    expect(
      await screen.findByText('This code has expired. Request a new login link and code.'),
    ).toBeTruthy();
  });
});

describe('complete-account validation', () => {
  it('opens and types without errors; a field says what is wrong once left, and lists them in a red list', async () => {
    const { dialog } = await signUpByCode();
    expect(listedErrors(dialog)).toEqual([]);
    const password = within(dialog).getByLabelText('Password');
    // Typing is not yet a mistake: nothing is said before the field is left.
    fireEvent.change(password, { target: { value: 'w' } });
    expect(password.getAttribute('aria-invalid')).toBeNull();
    expect(listedErrors(dialog)).toEqual([]);
    // Passing through an empty field is not one either.
    fireEvent.blur(within(dialog).getByLabelText('Username'));
    expect(within(dialog).getByLabelText('Username').getAttribute('aria-invalid')).toBeNull();

    fill(dialog, { username: 'sam', password: 'weakpass' });
    expect(listedErrors(dialog)).toEqual([
      'Your password must have at least 8 characters, with an uppercase letter, a lowercase letter, a number and a special character',
    ]);
    expect(password.getAttribute('aria-invalid')).toBe('true');

    fill(dialog, { password: 'Str0ng!pass', repeatPassword: 'Str0ng!pasS' });
    expect(listedErrors(dialog)).toContain('Passwords do not match');
    expect(within(dialog).getByLabelText('Repeat password').getAttribute('aria-invalid')).toBe(
      'true',
    );

    // With every text field visited, the unticked terms are listed too.
    fill(dialog, { repeatPassword: 'Str0ng!pass', birthday: birthdayYearsAgo(30) });
    expect(listedErrors(dialog)).toEqual(['Please accept the terms and conditions']);

    fill(dialog, { phoneNumber: '12' });
    expect(listedErrors(dialog)).toContain('Please enter a valid phone number');

    fill(dialog, { phoneNumber: '', acceptTerms: true });
    expect(listedErrors(dialog)).toEqual([]);
  });

  it('sent too early: every problem is listed and focus goes to the first field at fault', async () => {
    const sent: VerifyUserMutationVariables[] = [];
    const { dialog } = await signUpByCode([verifyUserMock({ success: true }, sent)]);
    fill(dialog, { username: 'sam', password: 'Str0ng!pass' });
    submitButton(dialog).focus();
    fireEvent.click(submitButton(dialog));
    await waitFor(() =>
      expect(document.activeElement).toBe(within(dialog).getByLabelText('Birthday')),
    );
    expect(listedErrors(dialog)).toEqual([
      'Please enter your birthday',
      'Please repeat your password',
      'Please accept the terms and conditions',
    ]);
    expect(sent).toEqual([]);
  });

  it('the username tooltip opens above the field, not over it', () => {
    // The tooltip's own stylesheet: jsdom lays nothing out, so the rule is what can be checked.
    const css = readFileSync(resolve(__dirname, '../../../ui/InfoTooltip.module.css'), 'utf8');
    const rule = /\.tooltip \{([^}]*)\}/.exec(css)?.[1] ?? '';
    expect(rule).toMatch(/bottom: calc\(100% \+/);
    expect(rule).not.toMatch(/top: calc\(100% \+/);
  });

  it('shows each reason under its own field, not only in the list below', async () => {
    const { dialog } = await signUpByCode();
    /** The error message rendered right under the field labelled `label`. */
    const messageUnder = (label: string) =>
      within(dialog)
        .getByLabelText(label)
        .closest('[data-field]')
        ?.querySelector('[data-status="error"]')?.textContent ?? null;

    fill(dialog, { username: 'sam', password: 'weakpass' });
    expect(messageUnder('Password')).toBe(
      'Your password must have at least 8 characters, with an uppercase letter, a lowercase letter, a number and a special character',
    );
    fill(dialog, { password: 'Str0ng!pass', repeatPassword: 'Str0ng!pasS' });
    expect(messageUnder('Repeat password')).toBe('Passwords do not match');
    expect(messageUnder('Password')).toBeNull();
    fill(dialog, { repeatPassword: 'Str0ng!pass', birthday: birthdayYearsAgo(30) });
    expect(messageUnder('Username')).toBeNull();
    const terms = within(dialog).getByRole('checkbox', { name: /I accept the terms/ });
    expect(terms.closest('[data-field]')?.querySelector('[data-status="error"]')?.textContent).toBe(
      'Please accept the terms and conditions',
    );
    fill(dialog, { birthday: birthdayYearsAgo(16, 1) });
    expect(messageUnder('Birthday')).toBe('You must be at least 16 years old to create an account');
  });

  it('refuses a birthday one day short of 16 years and accepts the 16th birthday', async () => {
    const { dialog } = await signUpByCode();
    fill(dialog, { ...COMPLETE, birthday: birthdayYearsAgo(16, 1) });
    expect(listedErrors(dialog)).toEqual([
      'You must be at least 16 years old to create an account',
    ]);
    expect(within(dialog).getByLabelText('Birthday').getAttribute('aria-invalid')).toBe('true');

    fill(dialog, { birthday: birthdayYearsAgo(16) });
    expect(listedErrors(dialog)).toEqual([]);
    expect(within(dialog).getByLabelText('Birthday').getAttribute('aria-invalid')).toBeNull();
  });

  it('refuses a birthday in the future', async () => {
    const { dialog } = await signUpByCode();
    fill(dialog, { ...COMPLETE, birthday: birthdayYearsAgo(-1) });
    expect(listedErrors(dialog)).toEqual(['Please enter a valid birthday in the past']);
  });

  it('tells that the username is public and permanent', async () => {
    const { dialog } = await signUpByCode();
    const tooltip = within(dialog).getByRole('tooltip');
    expect(tooltip.textContent).toContain('public and permanent');
    expect(within(dialog).getByLabelText('Username').getAttribute('aria-describedby')).toContain(
      tooltip.id,
    );
  });
});

describe('complete-account submission (verifyUser)', () => {
  it('sends the code, the form and eighteenPlusContent false for a 16-year-old', async () => {
    const sent: VerifyUserMutationVariables[] = [];
    const { dialog } = await signUpByCode([verifyUserMock({ success: true }, sent)]);
    const birthday = birthdayYearsAgo(16);
    fill(dialog, { ...COMPLETE, birthday, phoneNumber: '+31 6 1234 5678' });
    fireEvent.click(submitButton(dialog));
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]).toEqual({
      input: {
        email: EMAIL,
        code: CODE,
        username: 'sam',
        password: 'Str0ng!pass',
        repeatPassword: 'Str0ng!pass',
        birthday,
        phoneNumber: '+31 6 1234 5678',
        eighteenPlusContent: false,
        acceptTerms: true,
      },
    });
  });

  it('sends eighteenPlusContent true from the 18th birthday on', async () => {
    const sent: VerifyUserMutationVariables[] = [];
    const { dialog } = await signUpByCode([verifyUserMock({ success: true }, sent)]);
    fill(dialog, { ...COMPLETE, birthday: birthdayYearsAgo(18) });
    fireEvent.click(submitButton(dialog));
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]?.input.eighteenPlusContent).toBe(true);
    expect(sent[0]?.input.phoneNumber).toBeNull();
  });

  it('on success: says so, reloads the profile and lands on the create form with a welcome', async () => {
    const sent: VerifyUserMutationVariables[] = [];
    let signedUp = () => undefined as void;
    const { router, dialog, session } = await signUpByCode([
      verifyUserMock({ success: true }, sent, () => signedUp()),
    ]);
    signedUp = () => {
      session.user = sam;
    };
    fill(dialog, COMPLETE);
    fireEvent.click(submitButton(dialog));

    expect(await screen.findByText('Account created successfully')).toBeTruthy();
    // Nothing drafted yet: the first step of the form, where a new user can act.
    await waitFor(() => expect(currentUrl(router)).toBe('/challenge/create/step-1'));
    const welcome = (await screen.findByText('Welcome, sam!')).closest('[role="status"]');
    expect(welcome?.textContent).toContain('Your account is ready');
    expect(screen.getByRole('heading', { level: 1, name: 'Send your Challenge' })).toBeTruthy();
    await waitFor(() =>
      expect(screen.queryByRole('dialog', { name: 'Complete your account' })).toBeNull(),
    );
    const sidebar = screen.getByRole('complementary', { name: 'Sidebar' });
    expect(await within(sidebar).findByRole('link', { name: /@sam/ })).toBeTruthy();
    // No welcome-back after creating an account.
    expect(screen.queryByText('Welcome back!')).toBeNull();
  });

  it('on success with a drafted first step: continues at step 2, welcomed', async () => {
    window.localStorage.setItem(
      'challenge-draft',
      JSON.stringify({
        name: 'Juggle five balls',
        description: 'For one whole minute',
        target: 'username',
        challengedUsername: 'alice',
        timestamp: Date.now(),
      }),
    );
    const sent: VerifyUserMutationVariables[] = [];
    let signedUp = () => undefined as void;
    const { router, dialog, session } = await signUpByCode([
      verifyUserMock({ success: true }, sent, () => signedUp()),
    ]);
    signedUp = () => {
      session.user = sam;
    };
    fill(dialog, COMPLETE);
    fireEvent.click(submitButton(dialog));
    await waitFor(() => expect(currentUrl(router)).toBe('/challenge/create/step-2'));
    expect(await screen.findByText('Welcome, sam!')).toBeTruthy();
  });

  it('expired_credentials: ends the attempt, logs out and asks for a new code', async () => {
    const sent: VerifyUserMutationVariables[] = [];
    const { router, dialog, session } = await signUpByCode([
      verifyUserMock({ identifier: 'expired_credentials' }, sent),
    ]);
    fill(dialog, COMPLETE);
    fireEvent.click(submitButton(dialog));

    expect(
      await screen.findByText('Your login link or code has expired. Please request a new one.'),
    ).toBeTruthy();
    const login = await screen.findByRole('dialog', { name: 'Log in or sign up' });
    expect(within(login).getByLabelText('E-mail address')).toBeTruthy();
    expect(currentUrl(router)).toBe('/cookies?modal=login-magic-link');
    expect(session.logouts).toBe(1);
    expect(screen.queryByText('Successfully logged out')).toBeNull();

    // The sign-up in progress is gone: complete-account has nothing to complete any more.
    await router.navigate('/cookies?modal=complete-account');
    const empty = await screen.findByRole('dialog', { name: 'Complete your account' });
    expect(within(empty).queryByLabelText('Username')).toBeNull();
    expect(
      within(empty).getByRole('button', { name: 'Continue with my e-mail address' }),
    ).toBeTruthy();
  });

  it('shows the catalogue text of another failure and keeps the form', async () => {
    const sent: VerifyUserMutationVariables[] = [];
    const { dialog } = await signUpByCode([
      verifyUserMock({ identifier: 'no_unique_username' }, sent),
    ]);
    fill(dialog, COMPLETE);
    fireEvent.click(submitButton(dialog));
    expect(await screen.findByText('This username is already taken.')).toBeTruthy();
    expect(screen.getByRole('dialog', { name: 'Complete your account' })).toBeTruthy();
    expect(within(dialog).getByLabelText<HTMLInputElement>('Username').value).toBe('sam');
  });

  it('falls back to the sign-up error text when the server gives no reason', async () => {
    const sent: VerifyUserMutationVariables[] = [];
    const { dialog } = await signUpByCode([
      verifyUserMock({ identifier: null, message: null }, sent),
    ]);
    fill(dialog, COMPLETE);
    fireEvent.click(submitButton(dialog));
    expect(
      await screen.findByText('Unexpected error on creating account, try again later'),
    ).toBeTruthy();
  });

  it('cancel forgets the sign-up in progress', async () => {
    const { router, dialog } = await signUpByCode();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(currentUrl(router)).toBe('/cookies');
    await router.navigate('/cookies?modal=complete-account');
    const empty = await screen.findByRole('dialog', { name: 'Complete your account' });
    expect(within(empty).queryByLabelText('Username')).toBeNull();
  });
});
