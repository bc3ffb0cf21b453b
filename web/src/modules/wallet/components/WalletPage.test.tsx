import type { MockLink } from '@apollo/client/testing';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { externalNavigation } from '../../../lib/externalNavigation';
import {
  alice,
  answerMock,
  loggedInMock,
  loggedOutMock,
  networkFailureMock,
  statusOf,
} from '../../../test/mocks';
import { renderApp } from '../../../test/renderApp';
import {
  InitializePaymentDocument,
  type InitializePaymentMutationVariables,
} from '../graphql/InitializePayment';
import {
  RequestPayoutDocument,
  type RequestPayoutMutationVariables,
} from '../graphql/RequestPayout';
import { CurrentUserDocument } from '../../auth/graphql/CurrentUser';
import {
  UpdateProfileDocument,
  type UpdateProfileMutationVariables,
} from '../../settings/graphql/UpdateProfile';
import {
  completeProfile,
  emptyProfile,
  limits,
  overview,
  paymentProfileMock,
  transaction,
  transactionsMock,
  walletOverviewFailureMock,
  walletOverviewMock,
  walletOverviewResult,
} from '../testing/walletMocks';

const plain = (text: string | null) => (text ?? '').replace(/[\u00a0\u202f]/g, ' ');
/** An idempotency key as the forms make them (crypto.randomUUID). */
const anyKey = expect.stringMatching(
  /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
);
const visible = { ...alice, hideAvailableAmount: false };

/** The mocks every wallet page needs; `extra` come first so they win. */
function walletMocks(extra: MockLink.MockedResponse[] = [], profile = completeProfile) {
  return [
    ...extra,
    loggedInMock(visible),
    walletOverviewMock(),
    transactionsMock([[]]),
    paymentProfileMock(profile),
  ];
}

function initializePaymentMock(
  sent: InitializePaymentMutationVariables[],
  answer: Record<string, unknown> = {
    __typename: 'InitializePaymentResult',
    status: statusOf(true, 'ok', 'OK'),
    payment_url: 'https://www.mollie.com/checkout/select-method/abc123',
    paymentId: 'tr_abc123',
  },
  times = 1,
) {
  return answerMock<InitializePaymentMutationVariables>(
    InitializePaymentDocument,
    () => true,
    { InitializePayment: answer },
    { onVariables: (variables) => sent.push(variables), times },
  );
}

function payoutAnswer(success: boolean, identifier: string | null = null) {
  return {
    payoutRequest: {
      __typename: 'PayoutRequestResult',
      status: statusOf(success, identifier ?? 'ok', success ? 'OK' : 'Refused'),
      payoutRequest: success
        ? {
            __typename: 'PayoutRequest',
            id: 'p-1',
            amount: 2000,
            accountNumber: 'NL91ABNA0417164300',
            status: 'open',
            createdAt: '2026-11-22T10:00:00.000Z',
          }
        : null,
      wallet: success ? walletOverviewResult().wallet : null,
    },
  };
}

const topUpForm = () => screen.findByRole('form', { name: 'Top up' });
const payoutForm = () => screen.findByRole('form', { name: 'Pay out' });

describe('wallet page', () => {
  it('asks a logged-out visitor to log in instead of loading the wallet', async () => {
    renderApp({ path: '/wallet', mocks: [loggedOutMock()] });
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Log in to continue' }),
    ).toBeTruthy();
    expect(screen.queryByRole('heading', { level: 1, name: 'Wallet' })).toBeNull();
  });

  it('shows the balances and the open payout as euros from cents', async () => {
    renderApp({ path: '/wallet', mocks: walletMocks() });
    const available = await screen.findByRole('region', { name: 'Available balance' });
    const amountIn = (name: string) =>
      plain(within(screen.getByRole('region', { name })).getByText(/€/).textContent);
    expect(plain(within(available).getByText(/€/).textContent)).toBe('€1,234.56');
    // Issue 22, point 5: the open payout is not counted twice. Of the €45.00 reserved, €20.00
    // is the open payout; €25.00 is held for challenges. The cards add up to the total.
    expect(amountIn('Held for challenges')).toBe('€25.00');
    expect(amountIn('Open payout')).toBe('€20.00');
    expect(amountIn('Total')).toBe('€1,279.56');
    expect(screen.queryByRole('region', { name: 'Pending' })).toBeNull();
    expect(
      within(screen.getByRole('region', { name: 'Total' })).getByText(
        'Available, held for challenges and open payouts together.',
      ),
    ).toBeTruthy();
  });

  it('formats in Dutch for a Dutch user interface', async () => {
    renderApp({ path: '/wallet', language: 'nl', mocks: walletMocks() });
    const available = await screen.findByRole('region', { name: 'Beschikbaar saldo' });
    expect(plain(within(available).getByText(/€/).textContent)).toBe('€ 1.234,56');
  });

  /** getCurrentUserProfile answering from `account`, and updateProfile saving into it. */
  function accountMocks(saves: boolean) {
    const account = { ...alice, hideAvailableAmount: true as boolean | null };
    const sent: UpdateProfileMutationVariables[] = [];
    const mocks = [
      {
        request: { query: CurrentUserDocument },
        maxUsageCount: Number.POSITIVE_INFINITY,
        result: () => ({
          data: {
            getCurrentUserProfile: {
              __typename: 'CurrentUserProfileResult',
              status: statusOf(true),
              profile: { __typename: 'CurrentUserProfile', ...account },
            },
          },
        }),
      },
      answerMock<UpdateProfileMutationVariables>(
        UpdateProfileDocument,
        () => true,
        (variables) => {
          sent.push(variables);
          if (saves) account.hideAvailableAmount = variables.input.hideAvailableAmount ?? null;
          return {
            updateProfile: {
              __typename: 'UpdateProfileResult',
              status: saves ? statusOf(true, 'ok', 'OK') : statusOf(false, 'generic_error', 'x'),
              displayName: account.displayName,
              bio: null,
              avatar: null,
            },
          };
        },
        { times: 5 },
      ),
    ];
    return { account, sent, mocks };
  }

  it('hides amounts (balances and history) when the profile says so; the toggle reveals them and is kept with the account', async () => {
    const { account, sent, mocks } = accountMocks(true);
    renderApp({
      path: '/wallet',
      mocks: [
        ...mocks,
        walletOverviewMock(),
        transactionsMock([[transaction({ id: 't-1', kind: 'top_up', availableChange: 2500 })]]),
        paymentProfileMock(),
      ],
    });
    const available = await screen.findByRole('region', { name: 'Available balance' });
    expect(within(available).getByText('Amount hidden')).toBeTruthy();
    expect(available.textContent).not.toContain('1,234.56');
    const history = await screen.findByRole('region', { name: 'Transaction history' });
    expect(await within(history).findByText('Top-up')).toBeTruthy();
    expect(within(history).getByText('Amount hidden')).toBeTruthy();

    const toggle = screen.getByRole('button', { name: 'Show amounts' });
    expect(toggle.getAttribute('aria-pressed')).toBe('true');
    fireEvent.click(toggle);
    expect(plain(available.textContent)).toContain('€1,234.56');
    expect(plain(history.textContent)).toContain('+€25.00');
    expect(screen.getByRole('button', { name: 'Hide amounts' }).getAttribute('aria-pressed')).toBe(
      'false',
    );
    // Saved with the account (any browser sees it), not in this browser's storage.
    await waitFor(() => expect(sent).toEqual([{ input: { hideAvailableAmount: false } }]));
    await waitFor(() => expect(account.hideAvailableAmount).toBe(false));
    expect(Object.keys(window.localStorage)).not.toContain('wallet.hideAmounts');
  });

  it('puts the amounts back as they were when the choice cannot be saved', async () => {
    const { sent, mocks } = accountMocks(false);
    renderApp({
      path: '/wallet',
      mocks: [...mocks, walletOverviewMock(), transactionsMock([[]]), paymentProfileMock()],
    });
    const available = await screen.findByRole('region', { name: 'Available balance' });
    fireEvent.click(screen.getByRole('button', { name: 'Show amounts' }));
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(
      await screen.findByText('Your choice to show or hide amounts could not be saved.'),
    ).toBeTruthy();
    await waitFor(() => expect(within(available).getByText('Amount hidden')).toBeTruthy());
    expect(screen.getByRole('button', { name: 'Show amounts' })).toBeTruthy();
  });

  it('explains a failed wallet answer with the translated identifier', async () => {
    renderApp({
      path: '/wallet',
      mocks: [
        loggedInMock(),
        walletOverviewFailureMock('wallet_not_found'),
        transactionsMock([[]]),
      ],
    });
    const alert = await screen.findByText('Your wallet could not be loaded.');
    const box = alert.closest('[role="alert"]') as HTMLElement;
    expect(within(box).getByText("We couldn't find your wallet.")).toBeTruthy();
    expect(within(box).getByRole('button', { name: 'Try again' })).toBeTruthy();
    expect(screen.queryByRole('form', { name: 'Top up' })).toBeNull();
  });
});

describe('wallet page: transaction history', () => {
  const challenge = { id: 'c-1', slug: 'cold-shower', challengeName: 'Cold shower for a week' };

  it('says what each movement means, links rewards to their challenge, newest first', async () => {
    renderApp({
      path: '/wallet',
      mocks: [
        loggedInMock(visible),
        walletOverviewMock(),
        paymentProfileMock(),
        transactionsMock([
          [
            transaction({ id: 't-8', kind: 'chargeback', availableChange: -1000 }),
            transaction({ id: 't-7', kind: 'payout_complete', frozenChange: -2000 }),
            transaction({
              id: 't-6',
              kind: 'payout_request',
              availableChange: -2000,
              frozenChange: 2000,
            }),
            transaction({ id: 't-5', kind: 'refund', availableChange: -300 }),
            transaction({
              id: 't-4',
              kind: 'escrow_release',
              availableChange: 500,
              frozenChange: -500,
              challengeId: 'c-1',
              challenge,
            }),
            transaction({
              id: 't-3',
              kind: 'escrow_capture',
              availableChange: 700,
              challengeId: 'c-2',
              challenge: { id: 'c-2', slug: 'sing-in-public', challengeName: 'Sing in public' },
            }),
            transaction({
              id: 't-2',
              kind: 'escrow_hold',
              availableChange: -500,
              frozenChange: 500,
              challengeId: 'c-1',
              challenge,
            }),
            transaction({ id: 't-1', kind: 'top_up', availableChange: 5000 }),
          ],
        ]),
      ],
    });
    const history = await screen.findByRole('region', { name: 'Transaction history' });
    const rows = await within(history).findAllByRole('listitem');
    const texts = rows.map((row) => plain(row.textContent));
    expect(texts[0]).toContain('Card payment reversed by your bank');
    expect(texts[0]).toContain('-€10.00');
    expect(texts[1]).toContain('Payout paid to your bank account');
    expect(texts[1]).toContain('-€20.00');
    expect(texts[1]).toContain('From money set aside earlier');
    // Issue 22, point 5: asking a payout (or holding a reward) sets money aside inside the
    // wallet; it leaves once, when it is paid. So no signed amount on the request.
    expect(texts[2]).toContain('Payout requested');
    expect(texts[2]).toContain('Set aside: €20.00');
    expect(texts[2]).not.toMatch(/[-+]€/);
    expect(texts[3]).toContain('Top-up refunded to your card');
    expect(texts[3]).toContain('-€3.00');
    expect(texts[4]).toContain('Reward returned from Cold shower for a week');
    expect(texts[4]).toContain('Back to available: €5.00');
    expect(texts[4]).not.toMatch(/[-+]€/);
    expect(texts[5]).toContain('Reward received for Sing in public');
    expect(texts[5]).toContain('+€7.00');
    expect(texts[6]).toContain('Reward held for Cold shower for a week');
    expect(texts[6]).toContain('Set aside: €5.00');
    expect(texts[6]).not.toMatch(/[-+]€/);
    expect(texts[7]).toContain('Top-up');
    expect(texts[7]).toContain('+€50.00');
    // Of one reward's two movements for its owner, only the payment is money out.
    expect(texts.filter((text) => text.includes('-€5.00'))).toEqual([]);

    const link = within(rows[6]!).getByRole('link', { name: 'Cold shower for a week' });
    expect(link.getAttribute('href')).toBe('/challenge/cold-shower/detail');
    expect(
      within(rows[5]!).getByRole('link', { name: 'Sing in public' }).getAttribute('href'),
    ).toBe('/challenge/sing-in-public/detail');
  });

  it('pages through the history', async () => {
    const asked: number[] = [];
    renderApp({
      path: '/wallet',
      mocks: [
        loggedInMock(visible),
        walletOverviewMock(),
        paymentProfileMock(),
        transactionsMock(
          [
            [transaction({ id: 't-2', kind: 'top_up', availableChange: 2000 })],
            [transaction({ id: 't-1', kind: 'fee', availableChange: -50 })],
          ],
          { onPage: (page) => asked.push(page) },
        ),
      ],
    });
    const history = await screen.findByRole('region', { name: 'Transaction history' });
    expect(await within(history).findByText('Top-up')).toBeTruthy();
    const pages = within(history).getByRole('navigation', { name: 'Transaction history pages' });
    expect(within(pages).getByText('Page 1 of 2')).toBeTruthy();
    fireEvent.click(within(pages).getByRole('button', { name: 'Next' }));
    expect(await within(history).findByText('Fee')).toBeTruthy();
    expect(within(pages).getByText('Page 2 of 2')).toBeTruthy();
    expect(asked).toContain(2);
  });

  it('says so when there are no transactions yet', async () => {
    renderApp({ path: '/wallet', mocks: walletMocks() });
    expect(await screen.findByText('No transactions yet')).toBeTruthy();
  });
});

describe('wallet page: top up', () => {
  it('sends 12.50 typed in English as 1250 cents with this page as originUrl, then opens the checkout', async () => {
    const assign = vi.spyOn(externalNavigation, 'assign').mockImplementation(() => undefined);
    const sent: InitializePaymentMutationVariables[] = [];
    renderApp({ path: '/wallet', mocks: walletMocks([initializePaymentMock(sent)]) });
    const form = await topUpForm();
    fireEvent.change(within(form).getByLabelText('Amount in euros'), {
      target: { value: '12.50' },
    });
    const submit = within(form).getByRole('button', { name: 'Top up €12.50' });
    fireEvent.click(submit);
    await waitFor(() =>
      expect(assign).toHaveBeenCalledWith('https://www.mollie.com/checkout/select-method/abc123'),
    );
    expect(sent).toEqual([
      { input: { amount: 1250, originUrl: '/wallet', idempotencyKey: anyKey } },
    ]);
    expect(within(form).getByText('Taking you to the secure payment page…')).toBeTruthy();
  });

  it('reads 12,50 typed in Dutch as 1250 cents', async () => {
    const assign = vi.spyOn(externalNavigation, 'assign').mockImplementation(() => undefined);
    const sent: InitializePaymentMutationVariables[] = [];
    renderApp({
      path: '/wallet',
      language: 'nl',
      mocks: walletMocks([initializePaymentMock(sent)]),
    });
    const form = await screen.findByRole('form', { name: 'Opwaarderen' });
    fireEvent.change(within(form).getByLabelText('Bedrag in euro'), {
      target: { value: '12,50' },
    });
    fireEvent.click(within(form).getByRole('button', { name: /12,50 opwaarderen/ }));
    await waitFor(() => expect(assign).toHaveBeenCalled());
    expect(sent).toEqual([
      { input: { amount: 1250, originUrl: '/wallet', idempotencyKey: anyKey } },
    ]);
  });

  it('fills in a quick amount', async () => {
    vi.spyOn(externalNavigation, 'assign').mockImplementation(() => undefined);
    const sent: InitializePaymentMutationVariables[] = [];
    renderApp({ path: '/wallet', mocks: walletMocks([initializePaymentMock(sent)]) });
    const form = await topUpForm();
    const quick = within(form).getByRole('group', { name: 'Quick amounts' });
    fireEvent.click(within(quick).getByRole('button', { name: '€25.00' }));
    expect(within(form).getByLabelText<HTMLInputElement>('Amount in euros').value).toBe('25.00');
    fireEvent.click(within(form).getByRole('button', { name: 'Top up €25.00' }));
    await waitFor(() =>
      expect(sent).toEqual([
        { input: { amount: 2500, originUrl: '/wallet', idempotencyKey: anyKey } },
      ]),
    );
  });

  it('keeps to the minimum top-up and what is left of the monthly deposit limit', async () => {
    const sent: InitializePaymentMutationVariables[] = [];
    renderApp({ path: '/wallet', mocks: walletMocks([initializePaymentMock(sent)]) });
    const form = await topUpForm();
    const input = within(form).getByLabelText('Amount in euros');
    expect(
      within(form).getByText('Minimum €5.00. You can add up to €800.00 more this month.'),
    ).toBeTruthy();

    fireEvent.change(input, { target: { value: '4,99' } });
    fireEvent.click(within(form).getByRole('button', { name: /Top up|Continue to payment/ }));
    expect(await within(form).findByText('The minimum top-up is €5.00')).toBeTruthy();
    expect(input.getAttribute('aria-invalid')).toBe('true');

    fireEvent.change(input, { target: { value: '800.01' } });
    expect(within(form).getByText('You can add at most €800.00 more this month')).toBeTruthy();

    fireEvent.change(input, { target: { value: '12.345' } });
    expect(within(form).getByText('Enter an amount in euros, like 12.50')).toBeTruthy();
    expect(sent).toEqual([]);
  });

  it('says when this month’s deposit limit is used up', async () => {
    renderApp({
      path: '/wallet',
      mocks: [
        loggedInMock(visible),
        walletOverviewMock({ ...overview, limits: { ...limits, depositedThisMonth: 100000 } }),
        transactionsMock([[]]),
        paymentProfileMock(),
      ],
    });
    expect(await screen.findByText("You've reached this month's top-up limit")).toBeTruthy();
    expect(
      screen.queryByLabelText('Amount in euros', { selector: '[name="topUpAmount"]' }),
    ).toBeNull();
  });

  it.each([
    [
      'limit_exceeded_this_month',
      "You've reached this month's limit. E-mail support if you need more.",
    ],
    ['invalid_origin_url', 'The return address is not valid.'],
  ])('explains a refusal (%s) in the form', async (identifier, text) => {
    const assign = vi.spyOn(externalNavigation, 'assign').mockImplementation(() => undefined);
    renderApp({
      path: '/wallet',
      mocks: walletMocks([
        initializePaymentMock([], {
          __typename: 'InitializePaymentResult',
          status: statusOf(false, identifier, 'Refused'),
          payment_url: null,
          paymentId: null,
        }),
      ]),
    });
    const form = await topUpForm();
    fireEvent.change(within(form).getByLabelText('Amount in euros'), { target: { value: '10' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Top up €10.00' }));
    const alert = await within(form).findByRole('alert');
    expect(within(alert).getByText("Your top-up couldn't be started")).toBeTruthy();
    expect(within(alert).getByText(text)).toBeTruthy();
    expect(assign).not.toHaveBeenCalled();
  });

  it('never follows a payment link that is not an http(s) address', async () => {
    const assign = vi.spyOn(externalNavigation, 'assign').mockImplementation(() => undefined);
    renderApp({
      path: '/wallet',
      mocks: walletMocks([
        initializePaymentMock([], {
          __typename: 'InitializePaymentResult',
          status: statusOf(true, 'ok', 'OK'),
          payment_url: 'javascript:alert(1)',
          paymentId: 'tr_1',
        }),
      ]),
    });
    const form = await topUpForm();
    fireEvent.change(within(form).getByLabelText('Amount in euros'), { target: { value: '10' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Top up €10.00' }));
    expect(
      await within(form).findByText('The payment link could not be created. Please try again.'),
    ).toBeTruthy();
    expect(assign).not.toHaveBeenCalled();
  });
});

describe('wallet page: payout', () => {
  it('shows the bank account masked and requests a payout in cents after confirming', async () => {
    const sent: RequestPayoutMutationVariables[] = [];
    renderApp({
      path: '/wallet',
      mocks: walletMocks([
        answerMock<RequestPayoutMutationVariables>(
          RequestPayoutDocument,
          () => true,
          payoutAnswer(true),
          { onVariables: (variables) => sent.push(variables) },
        ),
      ]),
    });
    const form = await payoutForm();
    expect(await within(form).findByText('NL91 •••• 4300')).toBeTruthy();
    expect(form.textContent).not.toContain('0417');
    expect(within(form).getByRole('link', { name: 'Change' }).getAttribute('href')).toBe(
      '/settings/edit-payments',
    );

    fireEvent.change(within(form).getByLabelText('Amount in euros'), { target: { value: '20' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Request payout' }));
    const dialog = await screen.findByRole('dialog', { name: 'Confirm your payout' });
    expect(plain(dialog.textContent)).toContain('transfer €20.00 to NL91 •••• 4300');
    expect(sent).toEqual([]);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Pay out €20.00' }));

    expect((await screen.findAllByText('Payout of €20.00 requested')).length).toBeGreaterThan(0);
    expect(sent).toEqual([{ input: { amount: 2000, idempotencyKey: anyKey } }]);
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('fills in everything that can be paid out', async () => {
    renderApp({
      path: '/wallet',
      mocks: walletMocks(),
    });
    const form = await payoutForm();
    // The available €1,234.56 is capped by this month's €500.00 withdrawal limit.
    fireEvent.click(
      await within(form).findByRole('button', { name: 'Pay out everything (€500.00)' }),
    );
    expect(within(form).getByLabelText<HTMLInputElement>('Amount in euros').value).toBe('500.00');
  });

  it('checks the amount against the minimum payout and the balance before asking', async () => {
    renderApp({
      path: '/wallet',
      mocks: [
        loggedInMock(visible),
        walletOverviewMock({ ...overview, availableAmount: 3000 }),
        transactionsMock([[]]),
        paymentProfileMock(),
      ],
    });
    const form = await payoutForm();
    const input = within(form).getByLabelText('Amount in euros');
    fireEvent.change(input, { target: { value: '9.99' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Request payout' }));
    expect(await within(form).findByText('The minimum payout is €10.00')).toBeTruthy();
    fireEvent.change(input, { target: { value: '30.01' } });
    expect(within(form).getByText("That's more than your available balance")).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('sends people without payout details to the payment settings', async () => {
    renderApp({ path: '/wallet', mocks: walletMocks([], emptyProfile) });
    const form = await payoutForm();
    expect(await within(form).findByText('Add your payout details first')).toBeTruthy();
    expect(
      within(form).getByRole('link', { name: 'Add payout details' }).getAttribute('href'),
    ).toBe('/settings/edit-payments');
    expect(
      within(form).getByRole<HTMLButtonElement>('button', { name: 'Request payout' }).disabled,
    ).toBe(true);
  });

  it.each([
    [
      'payout_request_details_missing',
      'Add your phone number and bank details before requesting a payout.',
    ],
    ['payout_request_amount_too_low', 'The minimum payout is €10.00'],
    [
      'limit_exceeded_this_month',
      "You've reached this month's limit. E-mail support if you need more.",
    ],
    ['insufficient_funds', 'Your available balance is too low for this payout.'],
  ])('explains the refusal %s', async (identifier, text) => {
    renderApp({
      path: '/wallet',
      mocks: walletMocks([
        answerMock(RequestPayoutDocument, () => true, payoutAnswer(false, identifier)),
      ]),
    });
    const form = await payoutForm();
    await within(form).findByText('NL91 •••• 4300');
    fireEvent.change(within(form).getByLabelText('Amount in euros'), { target: { value: '20' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Request payout' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Pay out €20.00' }));
    const alert = await within(form).findByRole('alert');
    expect(within(alert).getByText("Your payout couldn't be requested")).toBeTruthy();
    expect(within(alert).getByText(text)).toBeTruthy();
    if (identifier === 'payout_request_details_missing') {
      expect(
        within(alert).getByRole('link', { name: 'Add payout details' }).getAttribute('href'),
      ).toBe('/settings/edit-payments');
    }
  });
});

describe('wallet page: one top-up or payout per submission (idempotency keys)', () => {
  const keys = (sent: Array<{ input: { idempotencyKey?: string | null } }>) =>
    sent.map(({ input }) => input.idempotencyKey);
  /** Waits until the form's submit button no longer shows the request in flight. */
  const settled = (button: HTMLElement) =>
    waitFor(() => expect(button.getAttribute('aria-busy')).toBeNull());

  it('sends a double-clicked top-up twice with the same key', async () => {
    const assign = vi.spyOn(externalNavigation, 'assign').mockImplementation(() => undefined);
    const sent: InitializePaymentMutationVariables[] = [];
    renderApp({ path: '/wallet', mocks: walletMocks([initializePaymentMock(sent, undefined, 2)]) });
    const form = await topUpForm();
    fireEvent.change(within(form).getByLabelText('Amount in euros'), { target: { value: '10' } });
    const submit = within(form).getByRole('button', { name: 'Top up €10.00' });
    // Both clicks land before React re-renders the busy button, as a fast double click can.
    act(() => {
      fireEvent.click(submit);
      fireEvent.click(submit);
    });
    await waitFor(() => expect(sent).toHaveLength(2));
    expect(keys(sent)).toEqual([anyKey, anyKey]);
    expect(sent[1]!.input.idempotencyKey).toBe(sent[0]!.input.idempotencyKey);
    await waitFor(() =>
      expect(assign).toHaveBeenCalledWith('https://www.mollie.com/checkout/select-method/abc123'),
    );
  });

  it('retries a top-up lost on the way with its key; an answered one ends the submission', async () => {
    const assign = vi.spyOn(externalNavigation, 'assign').mockImplementation(() => undefined);
    const sent: InitializePaymentMutationVariables[] = [];
    const record = {
      onVariables: (variables: InitializePaymentMutationVariables) => sent.push(variables),
    };
    renderApp({
      path: '/wallet',
      mocks: walletMocks([
        networkFailureMock(InitializePaymentDocument, record),
        networkFailureMock(InitializePaymentDocument, record),
        initializePaymentMock(sent, {
          __typename: 'InitializePaymentResult',
          status: statusOf(false, 'limit_exceeded_this_month', 'Refused'),
          payment_url: null,
          paymentId: null,
        }),
        initializePaymentMock(sent),
      ]),
    });
    const form = await topUpForm();
    const input = within(form).getByLabelText('Amount in euros');
    const button = () => within(form).getByRole('button', { name: /^Top up €/ });
    /** Submits `value` euros, the `count`th request sent. */
    const submit = async (value: string, count: number) => {
      fireEvent.change(input, { target: { value } });
      fireEvent.click(button());
      await waitFor(() => expect(sent).toHaveLength(count));
    };
    const networkError = "We couldn't reach the server. Check your connection and try again.";

    await submit('10', 1);
    expect(within(await within(form).findByRole('alert')).getByText(networkError)).toBeTruthy();
    await settled(button());
    // Another amount is another top-up: its own key.
    await submit('12', 2);
    expect(within(await within(form).findByRole('alert')).getByText(networkError)).toBeTruthy();
    await settled(button());
    // €10 again: the first top-up retried, perhaps already started on the server.
    await submit('10', 3);
    expect(
      await within(form).findByText(
        "You've reached this month's limit. E-mail support if you need more.",
      ),
    ).toBeTruthy();
    await settled(button());
    // The server answered that one: the next top-up is a new submission.
    await submit('10', 4);
    await waitFor(() => expect(assign).toHaveBeenCalled());

    const [first, other, retry, next] = keys(sent);
    expect(sent.map(({ input }) => input.amount)).toEqual([1000, 1200, 1000, 1000]);
    expect(retry).toBe(first);
    expect(other).not.toBe(first);
    expect(next).not.toBe(first);
    expect(next).not.toBe(other);
    expect(keys(sent)).toEqual([anyKey, anyKey, anyKey, anyKey]);
  });

  it('sends a double-confirmed payout with one key, and the next payout with a new one', async () => {
    const sent: RequestPayoutMutationVariables[] = [];
    renderApp({
      path: '/wallet',
      mocks: walletMocks([
        answerMock<RequestPayoutMutationVariables>(
          RequestPayoutDocument,
          () => true,
          payoutAnswer(true),
          { onVariables: (variables) => sent.push(variables), times: 3 },
        ),
      ]),
    });
    const form = await payoutForm();
    await within(form).findByText('NL91 •••• 4300');
    const requestPayout = async () => {
      fireEvent.change(within(form).getByLabelText('Amount in euros'), { target: { value: '20' } });
      fireEvent.click(within(form).getByRole('button', { name: 'Request payout' }));
      return screen.findByRole('dialog', { name: 'Confirm your payout' });
    };

    const dialog = await requestPayout();
    const confirm = within(dialog).getByRole('button', { name: 'Pay out €20.00' });
    act(() => {
      fireEvent.click(confirm);
      fireEvent.click(confirm);
    });
    await waitFor(() => expect(sent).toHaveLength(2));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(keys(sent)).toEqual([anyKey, anyKey]);
    expect(sent[1]!.input.idempotencyKey).toBe(sent[0]!.input.idempotencyKey);

    // The same amount once more, after the first payout was requested: a new payout, a new key.
    fireEvent.click(within(await requestPayout()).getByRole('button', { name: 'Pay out €20.00' }));
    await waitFor(() => expect(sent).toHaveLength(3));
    expect(sent[2]!.input).toEqual({ amount: 2000, idempotencyKey: anyKey });
    expect(sent[2]!.input.idempotencyKey).not.toBe(sent[0]!.input.idempotencyKey);
  });

  it('retries a payout lost on the way with the same key', async () => {
    const sent: RequestPayoutMutationVariables[] = [];
    renderApp({
      path: '/wallet',
      mocks: walletMocks([
        networkFailureMock<RequestPayoutMutationVariables>(RequestPayoutDocument, {
          onVariables: (variables) => sent.push(variables),
        }),
        answerMock<RequestPayoutMutationVariables>(
          RequestPayoutDocument,
          () => true,
          payoutAnswer(true),
          { onVariables: (variables) => sent.push(variables) },
        ),
      ]),
    });
    const form = await payoutForm();
    await within(form).findByText('NL91 •••• 4300');
    fireEvent.change(within(form).getByLabelText('Amount in euros'), { target: { value: '20' } });
    for (const count of [1, 2]) {
      fireEvent.click(within(form).getByRole('button', { name: 'Request payout' }));
      const dialog = await screen.findByRole('dialog', { name: 'Confirm your payout' });
      fireEvent.click(within(dialog).getByRole('button', { name: 'Pay out €20.00' }));
      await waitFor(() => expect(sent).toHaveLength(count));
      await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    }
    expect(within(form).queryByText("Your payout couldn't be requested")).toBeNull();
    expect((await screen.findAllByText('Payout of €20.00 requested')).length).toBeGreaterThan(0);
    expect(sent[1]!.input.idempotencyKey).toBe(sent[0]!.input.idempotencyKey);
  });
});
