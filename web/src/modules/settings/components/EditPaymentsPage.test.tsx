import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { answerMock, loggedInMock, statusOf } from '../../../test/mocks';
import { renderApp } from '../../../test/renderApp';
import type { PaymentProfile } from '../../wallet/graphql/ProfilePaymentInformation';
import {
  UpdateProfilePaymentInformationDocument,
  type UpdateProfilePaymentInformationMutationVariables,
} from '../../wallet/graphql/UpdateProfilePaymentInformation';
import {
  ReauthenticateDocument,
  type ReauthenticateMutationVariables,
} from '../graphql/Reauthenticate';
import {
  completeProfile,
  emptyProfile,
  paymentProfileMock,
} from '../../wallet/testing/walletMocks';

const PATH = '/settings/edit-payments';

function updateMock(
  sent: UpdateProfilePaymentInformationMutationVariables[],
  answer: { success: boolean; identifier?: string; message?: string; profile?: PaymentProfile },
) {
  return answerMock<UpdateProfilePaymentInformationMutationVariables>(
    UpdateProfilePaymentInformationDocument,
    () => true,
    ({ input }) => ({
      updateProfilePaymentInformation: {
        __typename: 'PaymentProfileResult',
        status: statusOf(
          answer.success,
          answer.identifier ?? 'ok',
          answer.message ?? (answer.success ? 'OK' : 'Refused'),
        ),
        paymentProfile: answer.success
          ? { __typename: 'PaymentProfile', ...(answer.profile ?? input) }
          : null,
      },
    }),
    { onVariables: (variables) => sent.push(variables) },
  );
}

const form = () => screen.findByRole('form', { name: 'Payout details' });

function fill(scope: HTMLElement, label: string | RegExp, value: string) {
  fireEvent.change(within(scope).getByLabelText(label), { target: { value } });
}

function fillAll(scope: HTMLElement) {
  fill(scope, 'Account holder name', 'Alice Jansen');
  fill(scope, 'IBAN', 'nl91 abna 0417 1643 00');
  fill(scope, /^BIC/, 'abnanl2a');
  fill(scope, 'Street and house number', 'Damrak 1');
  fill(scope, 'Postal code', '1012 LG');
  fill(scope, 'City', 'Amsterdam');
  fireEvent.change(within(scope).getByLabelText('Country'), { target: { value: 'NL' } });
  fill(scope, 'Phone number', '+31 6 12345678');
}

describe('settings: payout details', () => {
  it('shows the saved details, the IBAN in groups of four and the country in the UI language', async () => {
    renderApp({ path: PATH, language: 'nl', mocks: [loggedInMock(), paymentProfileMock()] });
    const details = await screen.findByRole('form', { name: 'Uitbetaalgegevens' });
    expect(within(details).getByLabelText<HTMLInputElement>('IBAN').value).toBe(
      'NL91 ABNA 0417 1643 00',
    );
    const country = within(details).getByLabelText<HTMLSelectElement>('Land');
    expect(country.value).toBe('NL');
    expect(
      within(country).getByRole<HTMLOptionElement>('option', { name: 'Nederland' }).selected,
    ).toBe(true);
    // 46 European countries and the empty choice.
    expect(within(country).getAllByRole('option')).toHaveLength(47);
    expect(within(country).getByRole('option', { name: 'Kosovo' })).toBeTruthy();
    expect(
      within(details).getByRole<HTMLButtonElement>('button', { name: 'Uitbetaalgegevens opslaan' })
        .disabled,
    ).toBe(true);
  });

  it('asks for every field before sending and moves focus to the first one missing', async () => {
    const sent: UpdateProfilePaymentInformationMutationVariables[] = [];
    renderApp({
      path: PATH,
      mocks: [
        loggedInMock(),
        paymentProfileMock(emptyProfile),
        updateMock(sent, { success: true }),
      ],
    });
    const details = await form();
    expect(
      within(details).getByText(
        'Fill in all fields to request payouts from your wallet (the BIC only for an IBAN from outside the EEA).',
      ),
    ).toBeTruthy();
    fill(details, 'City', 'Amsterdam');
    fireEvent.click(within(details).getByRole('button', { name: 'Save payout details' }));
    // Every field but the BIC, which no IBAN from the EEA needs.
    expect(within(details).getAllByText('This field is required')).toHaveLength(6);
    expect(document.activeElement).toBe(within(details).getByLabelText('Account holder name'));
    expect(within(details).getByLabelText('IBAN').getAttribute('aria-invalid')).toBe('true');
    expect(sent).toEqual([]);
  });

  it('catches a mistyped IBAN, a malformed BIC and phone number before sending', async () => {
    const sent: UpdateProfilePaymentInformationMutationVariables[] = [];
    renderApp({
      path: PATH,
      mocks: [
        loggedInMock(),
        paymentProfileMock(emptyProfile),
        updateMock(sent, { success: true }),
      ],
    });
    const details = await form();
    fillAll(details);
    fill(details, 'IBAN', 'NL91 ABNA 0417 1643 01');
    fill(details, /^BIC/, 'ABN');
    fill(details, 'Phone number', '12');
    fireEvent.click(within(details).getByRole('button', { name: 'Save payout details' }));
    expect(within(details).getByText("This IBAN doesn't add up. Check it for a typo")).toBeTruthy();
    expect(within(details).getByText('Enter a BIC of 8 or 11 letters and digits')).toBeTruthy();
    expect(
      within(details).getByText('Enter a valid phone number, like +31 6 12345678'),
    ).toBeTruthy();
    fill(details, 'IBAN', '12345');
    expect(
      within(details).getByText(
        'Enter an IBAN: a country code, two check digits, then your account number',
      ),
    ).toBeTruthy();
    expect(sent).toEqual([]);
  });

  it('saves the details with IBAN and BIC normalised, and says payouts are now possible', async () => {
    const sent: UpdateProfilePaymentInformationMutationVariables[] = [];
    renderApp({
      path: PATH,
      mocks: [
        loggedInMock(),
        paymentProfileMock(emptyProfile),
        updateMock(sent, { success: true }),
      ],
    });
    const details = await form();
    fillAll(details);
    fireEvent.click(within(details).getByRole('button', { name: 'Save payout details' }));
    expect(await screen.findByText('Your payout details have been saved')).toBeTruthy();
    expect(sent).toEqual([
      {
        input: {
          paymentName: 'Alice Jansen',
          paymentAccountNumber: 'NL91ABNA0417164300',
          paymentBic: 'ABNANL2A',
          paymentAddress: 'Damrak 1',
          paymentPostalCode: '1012 LG',
          paymentCity: 'Amsterdam',
          paymentCountryCode: 'NL',
          phoneNumber: '+31 6 12345678',
        },
      },
    ]);
    expect(within(details).getByText("You're ready for payouts")).toBeTruthy();
    expect(
      within(details).getByRole('link', { name: 'Go to my wallet' }).getAttribute('href'),
    ).toBe('/wallet');
    expect(within(details).getByLabelText<HTMLInputElement>('IBAN').value).toBe(
      'NL91 ABNA 0417 1643 00',
    );
    await waitFor(() =>
      expect(
        within(details).getByRole<HTMLButtonElement>('button', { name: 'Save payout details' })
          .disabled,
      ).toBe(true),
    );
  });

  it('explains a refusal by the server with its identifier, and what the server found wrong', async () => {
    const sent: UpdateProfilePaymentInformationMutationVariables[] = [];
    renderApp({
      path: PATH,
      mocks: [
        loggedInMock(),
        paymentProfileMock(completeProfile),
        updateMock(sent, {
          success: false,
          identifier: 'invalid_input',
          message: 'The BIC is from DE but the IBAN from NL: they must belong to the same bank.',
        }),
      ],
    });
    const details = await form();
    fill(details, /^BIC/, 'DEUTDEFF');
    fireEvent.click(within(details).getByRole('button', { name: 'Save payout details' }));
    const alert = await within(details).findByRole('alert');
    expect(within(alert).getByText("Your payout details couldn't be saved")).toBeTruthy();
    expect(
      within(alert).getByText('Some of the information you entered is not valid.'),
    ).toBeTruthy();
    expect(
      within(alert).getByText(
        'The BIC is from DE but the IBAN from NL: they must belong to the same bank.',
      ),
    ).toBeTruthy();
    expect(sent).toHaveLength(1);
  });

  /**
   * Issue 22, point 7: changing the IBAN asked for the password only after Save, already in
   * error. The saved IBAN is locked; "Change bank account" asks for the password first and says
   * why, then the field opens and the proof goes with the details.
   */
  it('asks for the password up front, saying why, before the IBAN can be replaced', async () => {
    const sent: UpdateProfilePaymentInformationMutationVariables[] = [];
    const confirmed: ReauthenticateMutationVariables[] = [];
    renderApp({
      path: PATH,
      mocks: [
        loggedInMock(),
        paymentProfileMock(completeProfile),
        answerMock<ReauthenticateMutationVariables>(
          ReauthenticateDocument,
          () => true,
          () => ({
            reauthenticate: {
              __typename: 'ReauthenticateResult',
              status: statusOf(true, 'ok', 'OK'),
              proof: 'proof-token',
            },
          }),
          { onVariables: (variables) => confirmed.push(variables) },
        ),
        updateMock(sent, { success: true }),
      ],
    });
    const details = await form();
    // The saved IBAN is locked; other details change without the password.
    expect(within(details).getByLabelText('IBAN').hasAttribute('readonly')).toBe(true);
    expect(within(details).queryByLabelText('Your password')).toBeNull();
    fireEvent.click(within(details).getByRole('button', { name: 'Change bank account' }));

    const dialog = await screen.findByRole('dialog', { name: 'Confirm it’s you' });
    expect(within(dialog).getByText(/whoever changes it receives your payouts/)).toBeTruthy();
    // No error before anything was tried.
    expect(within(dialog).getByLabelText('Your password').getAttribute('aria-invalid')).not.toBe(
      'true',
    );
    fill(dialog, 'Your password', 'Sturdy-Pass-42');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(confirmed).toEqual([
      { input: { purpose: 'payment_profile', password: 'Sturdy-Pass-42' } },
    ]);

    const iban = within(details).getByLabelText('IBAN');
    expect(iban.hasAttribute('readonly')).toBe(false);
    fill(details, 'IBAN', 'DE89 3704 0044 0532 0130 00');
    fill(details, /^BIC/, 'COBADEFFXXX');
    fireEvent.click(within(details).getByRole('button', { name: 'Save payout details' }));
    expect(await screen.findByText('Your payout details have been saved')).toBeTruthy();
    expect(sent).toHaveLength(1);
    expect(sent[0]!.input).toMatchObject({
      paymentAccountNumber: 'DE89370400440532013000',
      reauthProof: 'proof-token',
    });
  });

  it('takes an IBAN from the EEA without a BIC (sent as none) and asks for one outside it (issue 22, point 14)', async () => {
    const sent: UpdateProfilePaymentInformationMutationVariables[] = [];
    renderApp({
      path: PATH,
      mocks: [
        loggedInMock(),
        paymentProfileMock(emptyProfile),
        updateMock(sent, { success: true }),
      ],
    });
    const details = await form();
    fillAll(details);
    fill(details, /^BIC/, '');
    expect(within(details).getByLabelText('BIC (optional)')).toBeTruthy();
    // A Swiss IBAN: the BIC is needed, and said so before anything is sent.
    fill(details, 'IBAN', 'CH93 0076 2011 6238 5295 7');
    expect(within(details).getByLabelText('BIC')).toBeTruthy();
    fireEvent.click(within(details).getByRole('button', { name: 'Save payout details' }));
    expect(within(details).getByLabelText('BIC').getAttribute('aria-invalid')).toBe('true');
    expect(sent).toEqual([]);
    // Back to the Dutch IBAN: saved without a BIC.
    fill(details, 'IBAN', 'nl91 abna 0417 1643 00');
    fireEvent.click(within(details).getByRole('button', { name: 'Save payout details' }));
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]!.input).toMatchObject({
      paymentAccountNumber: 'NL91ABNA0417164300',
      paymentBic: null,
    });
    expect(await screen.findByText("You're ready for payouts")).toBeTruthy();
  });

  it('translates a known identifier such as invalid_phone_number', async () => {
    renderApp({
      path: PATH,
      language: 'nl',
      mocks: [
        loggedInMock(),
        paymentProfileMock(completeProfile),
        updateMock([], { success: false, identifier: 'invalid_phone_number' }),
      ],
    });
    const details = await screen.findByRole('form', { name: 'Uitbetaalgegevens' });
    fill(details, 'Telefoonnummer', '+31 6 87654321');
    fireEvent.click(within(details).getByRole('button', { name: 'Uitbetaalgegevens opslaan' }));
    const alert = await within(details).findByRole('alert');
    expect(within(alert).getByText('Vul een geldig telefoonnummer in.')).toBeTruthy();
  });
});
