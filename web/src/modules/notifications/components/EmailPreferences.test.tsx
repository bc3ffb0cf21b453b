import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { answerMock, loggedInMock, loggedOutMock, statusOf } from '../../../test/mocks';
import { renderApp } from '../../../test/renderApp';
import {
  EmailPreferencesDocument,
  type EmailPreferences,
  type EmailPreferencesQueryVariables,
} from '../graphql/EmailPreferences';
import {
  UpdateEmailPreferencesDocument,
  type UpdateEmailPreferencesMutationVariables,
} from '../graphql/UpdateEmailPreferences';

const UNSET: EmailPreferences = {
  newChallenge: null,
  updateChallenge: null,
  completedChallenge: null,
  marketing: null,
};
const TOKEN = 'dXNlci4xMjM.c2lnbmF0dXJl';

const answer = (preferences: EmailPreferences | null, identifier = 'ok') => ({
  __typename: 'EmailPreferencesResult',
  status: statusOf(identifier === 'ok', identifier, identifier === 'ok' ? 'OK' : 'Refused'),
  emailPreferences: preferences ? { __typename: 'EmailPreferences', ...preferences } : null,
});

const readMock = (
  token: string | null,
  preferences: EmailPreferences | null,
  identifier?: string,
) =>
  answerMock<EmailPreferencesQueryVariables>(
    EmailPreferencesDocument,
    { input: { token } },
    { getEmailPreferences: answer(preferences, identifier) },
    { times: Number.POSITIVE_INFINITY },
  );

const updateMock = (sent: UpdateEmailPreferencesMutationVariables[]) =>
  answerMock<UpdateEmailPreferencesMutationVariables>(
    UpdateEmailPreferencesDocument,
    () => true,
    ({ input: { token: _token, ...choices } }) => ({
      updateEmailPreferences: answer({ ...UNSET, ...choices }),
    }),
    { onVariables: (variables) => sent.push(variables), times: 5 },
  );

const checkbox = (form: HTMLElement, name: string) =>
  within(form).getByRole<HTMLInputElement>('checkbox', { name: new RegExp(`^${name}`) });

describe('the e-mail preferences page, from the link in an e-mail', () => {
  it('works without logging in: shows the defaults for choices not made and saves them all by token', async () => {
    const sent: UpdateEmailPreferencesMutationVariables[] = [];
    renderApp({
      path: `/email-preferences?token=${TOKEN}`,
      mocks: [
        loggedOutMock(),
        readMock(TOKEN, { ...UNSET, completedChallenge: false }),
        updateMock(sent),
      ],
    });
    const form = await screen.findByRole('form', { name: 'E-mail me about' });
    expect(checkbox(form, 'Being challenged').checked).toBe(true);
    expect(checkbox(form, 'Actions on my challenges').checked).toBe(true);
    expect(checkbox(form, 'The outcome of my challenges').checked).toBe(false);
    expect(checkbox(form, 'News and offers').checked).toBe(false);
    const save = within(form).getByRole<HTMLButtonElement>('button', { name: 'Save preferences' });
    expect(save.disabled).toBe(true);

    fireEvent.click(checkbox(form, 'Actions on my challenges'));
    expect(save.disabled).toBe(false);
    fireEvent.click(save);
    expect(await screen.findByText('Your e-mail preferences are saved.')).toBeTruthy();
    expect(sent).toEqual([
      {
        input: {
          token: TOKEN,
          newChallenge: true,
          updateChallenge: false,
          completedChallenge: false,
          marketing: false,
        },
      },
    ]);
    await waitFor(() => expect(save.disabled).toBe(true));
  });

  it('unsubscribes from everything in one click', async () => {
    const sent: UpdateEmailPreferencesMutationVariables[] = [];
    renderApp({
      path: `/email-preferences?token=${TOKEN}`,
      language: 'nl',
      mocks: [loggedOutMock(), readMock(TOKEN, UNSET), updateMock(sent)],
    });
    const form = await screen.findByRole('form', { name: 'Mail me over' });
    fireEvent.click(within(form).getByRole('button', { name: 'Afmelden voor alles' }));
    expect(await screen.findByText('Je e-mailvoorkeuren zijn opgeslagen.')).toBeTruthy();
    expect(sent[0]?.input).toEqual({
      token: TOKEN,
      newChallenge: false,
      updateChallenge: false,
      completedChallenge: false,
      marketing: false,
    });
    await waitFor(() => expect(checkbox(form, 'Uitgedaagd worden').checked).toBe(false));
  });

  it('explains an expired link and offers to log in instead', async () => {
    renderApp({
      path: `/email-preferences?token=${TOKEN}`,
      mocks: [loggedOutMock(), readMock(TOKEN, null, 'expired_credentials')],
    });
    const alert = await screen.findByRole('alert');
    expect(
      within(alert).getByText('This link has expired. Log in to change your e-mail preferences.'),
    ).toBeTruthy();
    fireEvent.click(within(alert).getByRole('button', { name: 'Log in' }));
    expect(await screen.findByRole('dialog', { name: 'Log in or sign up' })).toBeTruthy();
  });

  it('explains a link that is not valid', async () => {
    renderApp({
      path: `/email-preferences?token=${TOKEN}`,
      mocks: [loggedInMock(), readMock(TOKEN, null, 'unauthorized')],
    });
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText(/This link is not valid/)).toBeTruthy();
    // The token read can answer before the viewer does: until then the alert offers "Log in".
    const settings = await within(alert).findByRole('link', { name: 'Open my settings' });
    expect(settings.getAttribute('href')).toBe('/settings/edit-email-preferences');
  });

  it('without a link asks a logged-out visitor to log in', async () => {
    renderApp({ path: '/email-preferences', mocks: [loggedOutMock()] });
    expect(await screen.findByText(/Open this page with the link at the bottom/)).toBeTruthy();
    expect(screen.queryByRole('form')).toBeNull();
  });

  it('without a link shows the logged-in user their own preferences', async () => {
    renderApp({
      path: '/email-preferences',
      mocks: [loggedInMock(), readMock(null, { ...UNSET, marketing: true })],
    });
    const form = await screen.findByRole('form', { name: 'E-mail me about' });
    expect(checkbox(form, 'News and offers').checked).toBe(true);
  });
});

describe('settings: e-mail preferences', () => {
  it('edits the logged-in user’s own preferences', async () => {
    const sent: UpdateEmailPreferencesMutationVariables[] = [];
    renderApp({
      path: '/settings/edit-email-preferences',
      mocks: [loggedInMock(), readMock(null, UNSET), updateMock(sent)],
    });
    const form = await screen.findByRole('form', { name: 'E-mail me about' });
    fireEvent.click(checkbox(form, 'News and offers'));
    fireEvent.click(within(form).getByRole('button', { name: 'Save preferences' }));
    expect(await screen.findByText('Your e-mail preferences are saved.')).toBeTruthy();
    expect(sent[0]?.input).toMatchObject({ token: null, marketing: true, newChallenge: true });
  });
});
