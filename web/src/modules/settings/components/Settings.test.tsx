import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import {
  alice,
  answerMock,
  loggedInMock,
  sessionMocks,
  statusOf,
  statusResult,
} from '../../../test/mocks';
import { currentUrl, renderApp } from '../../../test/renderApp';
import { ChangePasswordDocument } from '../graphql/ChangePassword';
import { DeleteUserDocument } from '../graphql/DeleteUser';
import { SettingsDocument, type UserSettings } from '../graphql/Settings';
import {
  UpdateMinimalChallengeDocument,
  type UpdateMinimalChallengeMutationVariables,
} from '../graphql/UpdateMinimalChallenge';
import {
  UpdateProfileDocument,
  type UpdateProfileMutationVariables,
} from '../graphql/UpdateProfile';

const settings: UserSettings = {
  displayName: 'Alice Jansen',
  bio: 'Dares accepted.',
  avatar: null,
  challengeable: true,
  minimumChallengeEnabled: false,
  minimumChallengeValue: 0,
  publicProfile: true,
  hasPassword: true,
};

function settingsMock(value: UserSettings = settings) {
  return answerMock(
    SettingsDocument,
    {},
    {
      getSettings: {
        __typename: 'SettingsResult',
        status: statusOf(true, 'ok', 'OK'),
        settings: { __typename: 'Settings', ...value },
      },
    },
    { times: Number.POSITIVE_INFINITY },
  );
}

const form = (name: string) => screen.findByRole('form', { name });

describe('settings: edit profile', () => {
  it('sends the minimum challenge amount, typed in euros, as integer cents', async () => {
    const sent: UpdateMinimalChallengeMutationVariables[] = [];
    renderApp({
      path: '/settings/edit-profile',
      mocks: [
        loggedInMock(),
        settingsMock(),
        answerMock<UpdateMinimalChallengeMutationVariables>(
          UpdateMinimalChallengeDocument,
          () => true,
          { updateMinimalChallenge: statusResult('StatusResult', true) },
          { onVariables: (variables) => sent.push(variables) },
        ),
      ],
    });
    const challenges = await form('Being challenged');
    const save = within(challenges).getByRole<HTMLButtonElement>('button', { name: 'Save' });
    expect(save.disabled).toBe(true);
    fireEvent.click(
      within(challenges).getByRole('checkbox', {
        name: 'Only accept challenges above a minimum reward',
      }),
    );
    const amount = within(challenges).getByLabelText('Minimum reward in euros');

    fireEvent.change(amount, { target: { value: '12.345' } });
    expect(within(challenges).getByText('Enter an amount in euros, like 5 or 12.50')).toBeTruthy();
    expect(amount.getAttribute('aria-invalid')).toBe('true');
    expect(save.disabled).toBe(true);

    // Spec section 5's form-library texts, with the bounds.
    fireEvent.change(amount, { target: { value: 'five' } });
    expect(within(challenges).getByText('Value must be numeric')).toBeTruthy();
    fireEvent.change(amount, { target: { value: '0' } });
    expect(within(challenges).getByText('The minimum value allowed is €0.01')).toBeTruthy();
    fireEvent.change(amount, { target: { value: '100000.01' } });
    expect(within(challenges).getByText('The maximum value allowed is €100,000.00')).toBeTruthy();
    expect(save.disabled).toBe(true);

    fireEvent.change(amount, { target: { value: '12,50' } });
    expect(save.disabled).toBe(false);
    fireEvent.click(save);
    expect(await screen.findByText('Your changes have been saved')).toBeTruthy();
    expect(sent).toEqual([
      { input: { minimumChallengeEnabled: true, minimumChallengeValue: 1250 } },
    ]);
  });

  it('shows a stored minimum (cents) as euros in the UI language', async () => {
    renderApp({
      path: '/settings/edit-profile',
      language: 'nl',
      mocks: [
        loggedInMock(),
        settingsMock({ ...settings, minimumChallengeEnabled: true, minimumChallengeValue: 750 }),
      ],
    });
    const challenges = await form('Uitgedaagd worden');
    expect(
      within(challenges).getByLabelText<HTMLInputElement>('Minimale beloning in euro').value,
    ).toBe('7,50');
  });

  it('saves display name and bio with updateProfile', async () => {
    const sent: UpdateProfileMutationVariables[] = [];
    renderApp({
      path: '/settings/edit-profile',
      mocks: [
        loggedInMock(),
        settingsMock(),
        answerMock<UpdateProfileMutationVariables>(
          UpdateProfileDocument,
          () => true,
          {
            updateProfile: {
              ...statusResult('UpdateProfileResult', true),
              displayName: 'Alice J.',
              bio: 'New bio',
              avatar: null,
            },
          },
          { onVariables: (variables) => sent.push(variables) },
        ),
      ],
    });
    const profile = await form('Your profile');
    expect(within(profile).getByLabelText<HTMLInputElement>('Display name').value).toBe(
      'Alice Jansen',
    );
    fireEvent.change(within(profile).getByLabelText('Display name'), {
      target: { value: ' Alice J. ' },
    });
    fireEvent.change(within(profile).getByLabelText('Bio'), { target: { value: 'New bio' } });
    fireEvent.click(within(profile).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Your changes have been saved')).toBeTruthy();
    expect(sent).toEqual([{ input: { displayName: 'Alice J.', bio: 'New bio' } }]);
  });
});

describe('settings: change password', () => {
  const changeMock = (success: boolean, identifier: string | null) =>
    answerMock(
      ChangePasswordDocument,
      {
        input: {
          currentPassword: 'Old-pass1',
          password: 'N3w!password',
          repeatPassword: 'N3w!password',
        },
      },
      { changePassword: statusResult('StatusResult', success, identifier, 'x') },
    );

  async function fillIn() {
    const card = await form('Password');
    fireEvent.change(within(card).getByLabelText('Current password'), {
      target: { value: 'Old-pass1' },
    });
    fireEvent.change(within(card).getByLabelText('New password'), {
      target: { value: 'N3w!password' },
    });
    fireEvent.change(within(card).getByLabelText('Repeat password'), {
      target: { value: 'N3w!password' },
    });
    fireEvent.click(within(card).getByRole('button', { name: 'Change password' }));
    return card;
  }

  it('marks a wrong current password on its field', async () => {
    renderApp({
      path: '/settings/change-password',
      mocks: [loggedInMock(), changeMock(false, 'invalid_credentials')],
    });
    const card = await fillIn();
    expect(await within(card).findByText('The current password is not correct.')).toBeTruthy();
    expect(within(card).getByLabelText('Current password').getAttribute('aria-invalid')).toBe(
      'true',
    );
  });

  it('confirms a change and empties the form', async () => {
    renderApp({
      path: '/settings/change-password',
      mocks: [loggedInMock(), changeMock(true, 'ok')],
    });
    const card = await fillIn();
    expect(await screen.findByText('Your password has been changed')).toBeTruthy();
    expect(within(card).getByLabelText<HTMLInputElement>('Current password').value).toBe('');
  });
});

describe('settings: delete account', () => {
  const deleteMock = (success: boolean, identifier: string | null) =>
    answerMock(
      DeleteUserDocument,
      {},
      { deleteUser: statusResult('StatusResult', success, identifier, 'x') },
    );

  async function confirmDeletion() {
    fireEvent.click(await screen.findByRole('button', { name: 'Delete my account' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete your account?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Yes, delete my account' }));
    return dialog;
  }

  it.each([
    [
      'wallet_contains_money',
      'Your wallet still contains money. Pay it out before deleting your account.',
    ],
    [
      'user_contains_open_payouts',
      'You still have open payouts. Wait until they are paid before deleting your account.',
    ],
  ])('refused with %s: explains why in the dialog', async (identifier, text) => {
    const { mocks, session } = sessionMocks(alice);
    renderApp({ path: '/settings/edit-account', mocks: [...mocks, deleteMock(false, identifier)] });
    const dialog = await confirmDeletion();
    expect((await within(dialog).findByRole('alert')).textContent).toContain(text);
    expect(within(dialog).getByRole('link', { name: 'Go to my wallet' })).toBeTruthy();
    expect(session.logouts).toBe(0);
  });

  it('accepted: explains the one-month delay and logs out', async () => {
    const { mocks, session } = sessionMocks(alice);
    const { router } = renderApp({
      path: '/settings/edit-account',
      mocks: [...mocks, deleteMock(true, 'ok')],
    });
    await confirmDeletion();
    expect(
      await screen.findByText(
        'Your account will be deleted in one month. Contact support within that month if you change your mind.',
      ),
    ).toBeTruthy();
    expect(await screen.findByText('Successfully logged out')).toBeTruthy();
    expect(session.logouts).toBe(1);
    await waitFor(() => expect(currentUrl(router)).toBe('/'));
  });
});
