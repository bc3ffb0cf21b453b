import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { externalNavigation } from '../../../lib/externalNavigation';
import { alice, answerMock, loggedInMock, statusOf } from '../../../test/mocks';
import { renderApp } from '../../../test/renderApp';
import {
  InitializePaymentDocument,
  type InitializePaymentMutationVariables,
} from '../graphql/InitializePayment';
import { walletOverviewMock } from '../testing/walletMocks';

function initializePaymentMock(sent: InitializePaymentMutationVariables[]) {
  return answerMock<InitializePaymentMutationVariables>(
    InitializePaymentDocument,
    () => true,
    {
      InitializePayment: {
        __typename: 'InitializePaymentResult',
        status: statusOf(true, 'ok', 'OK'),
        payment_url: 'https://pay.example/checkout/1',
        paymentId: 'tr_1',
      },
    },
    { onVariables: (variables) => sent.push(variables) },
  );
}

describe('top-up page', () => {
  it('fills in the suggested amount and returns to the page that sent the user here', async () => {
    const assign = vi.spyOn(externalNavigation, 'assign').mockImplementation(() => undefined);
    const sent: InitializePaymentMutationVariables[] = [];
    renderApp({
      path: '/wallet/top-up?amount=1250&originUrl=%2Fchallenge%2Fcreate%2Fstep-2',
      mocks: [
        loggedInMock({ ...alice, hideAvailableAmount: false }),
        walletOverviewMock(),
        initializePaymentMock(sent),
      ],
    });
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Top up your wallet' }),
    ).toBeTruthy();
    const form = await screen.findByRole('form', { name: 'Top up' });
    expect(within(form).getByLabelText<HTMLInputElement>('Amount in euros').value).toBe('12.50');
    fireEvent.click(within(form).getByRole('button', { name: 'Top up €12.50' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('https://pay.example/checkout/1'));
    expect(sent).toEqual([
      {
        input: {
          amount: 1250,
          originUrl: '/challenge/create/step-2',
          idempotencyKey: expect.any(String),
        },
      },
    ]);
  });

  it('ignores a return address that leaves the site', async () => {
    vi.spyOn(externalNavigation, 'assign').mockImplementation(() => undefined);
    const sent: InitializePaymentMutationVariables[] = [];
    renderApp({
      path: '/wallet/top-up?originUrl=%2F%2Fevil.example%2F',
      mocks: [loggedInMock(), walletOverviewMock(), initializePaymentMock(sent)],
    });
    const form = await screen.findByRole('form', { name: 'Top up' });
    fireEvent.change(within(form).getByLabelText('Amount in euros'), { target: { value: '10' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Top up €10.00' }));
    await waitFor(() =>
      expect(sent).toEqual([
        {
          input: { amount: 1000, originUrl: '/wallet/top-up', idempotencyKey: expect.any(String) },
        },
      ]),
    );
  });
});
