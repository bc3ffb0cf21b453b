import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { alice, answerMock, loggedInMock, statusOf } from '../../../test/mocks';
import { renderApp } from '../../../test/renderApp';
import { TopUpDocument, type TopUpQueryVariables } from '../graphql/TopUp';
import { TOP_UP_POLL_INTERVAL_MS, TOP_UP_POLL_TIMEOUT_MS } from '../hooks/usePollTopUp';

const plain = (text: string | null) => (text ?? '').replace(/[\u00a0\u202f]/g, ' ');

function topUpAnswer(paymentStatus: string, originUrl = '/challenge/create/step-2') {
  return {
    getTopUp: {
      __typename: 'TopUpResult',
      status: statusOf(true, 'ok', 'OK'),
      topUp: {
        __typename: 'TopUp',
        id: 'tr_abc123',
        amount: 2500,
        paymentStatus,
        originUrl,
        createdAt: '2026-11-22T10:00:00.000Z',
        paidAt: paymentStatus === 'paid' ? '2026-11-22T10:00:20.000Z' : null,
      },
      wallet:
        paymentStatus === 'paid'
          ? {
              __typename: 'Wallet',
              availableAmount: 7550,
              freezeAmount: 0,
              totalAmount: 7550,
            }
          : null,
    },
  };
}

/** getTopUp answering the statuses in turn (the last one from then on); counts the questions. */
function topUpMock(statuses: string[], asked: { count: number }, originUrl?: string) {
  return answerMock<TopUpQueryVariables>(
    TopUpDocument,
    ({ id }) => id === 'tr_abc123',
    () => {
      const status = statuses[Math.min(asked.count, statuses.length - 1)]!;
      asked.count += 1;
      return topUpAnswer(status, originUrl);
    },
    { times: Number.POSITIVE_INFINITY },
  );
}

const visible = { ...alice, hideAvailableAmount: false };

/** Lets the polling timers and the mocked network (20 to 50 ms per answer) run. */
async function elapse(ms: number) {
  await act(async () => {
    await vi.advanceTimersByTimeAsync(ms);
  });
}

describe('payment success page', () => {
  beforeEach(() => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('follows an open payment until it is paid, then shows the new balance and the way back', async () => {
    const asked = { count: 0 };
    renderApp({
      path: '/wallet/payment-success?payment=tr_abc123',
      mocks: [loggedInMock(visible), topUpMock(['open', 'open', 'paid'], asked)],
    });
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Checking your payment…' }),
    ).toBeTruthy();
    expect(
      await screen.findByText(
        "We're confirming your top-up of €25.00. This usually takes a few seconds.",
      ),
    ).toBeTruthy();

    await elapse(TOP_UP_POLL_INTERVAL_MS);
    await elapse(TOP_UP_POLL_INTERVAL_MS);
    const heading = await screen.findByRole('heading', {
      level: 1,
      name: 'Your top-up was successful',
    });
    expect(asked.count).toBe(3);
    expect(screen.getByText('€25.00 has been added to your wallet.')).toBeTruthy();
    expect(plain(screen.getByText('New available balance').parentElement!.textContent)).toContain(
      '€75.50',
    );
    expect(screen.getByRole('link', { name: 'Continue where you were' }).getAttribute('href')).toBe(
      '/challenge/create/step-2',
    );
    expect(screen.getByRole('link', { name: 'Go to my wallet' }).getAttribute('href')).toBe(
      '/wallet',
    );
    // The outcome is announced by moving focus to it.
    await waitFor(() => expect(document.activeElement).toBe(heading));

    // Polling has stopped.
    await elapse(TOP_UP_POLL_INTERVAL_MS * 3);
    expect(asked.count).toBe(3);
  });

  it('keeps the new balance private when amounts are hidden', async () => {
    renderApp({
      path: '/wallet/payment-success?payment=tr_abc123',
      mocks: [
        loggedInMock({ ...alice, hideAvailableAmount: true }),
        topUpMock(['paid'], { count: 0 }),
      ],
    });
    expect(await screen.findByRole('heading', { name: 'Your top-up was successful' })).toBeTruthy();
    expect(screen.queryByText('New available balance')).toBeNull();
  });

  it('offers only the wallet when the top-up started there', async () => {
    renderApp({
      path: '/wallet/payment-success?payment=tr_abc123',
      mocks: [loggedInMock(visible), topUpMock(['paid'], { count: 0 }, '/wallet')],
    });
    expect(await screen.findByRole('heading', { name: 'Your top-up was successful' })).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Continue where you were' })).toBeNull();
    expect(screen.getByRole('link', { name: 'Go to my wallet' })).toBeTruthy();
  });

  it.each([
    [
      'failed',
      'Your payment failed',
      "The payment of €25.00 didn't go through and no money was taken. You can try again.",
    ],
    [
      'canceled',
      'You cancelled the payment',
      'No money was taken for the top-up of €25.00. You can top up again whenever you like.',
    ],
    [
      'expired',
      'The payment has expired',
      "The payment of €25.00 wasn't completed in time and no money was taken. You can try again.",
    ],
  ])('explains a %s payment and offers to try again', async (status, title, text) => {
    const asked = { count: 0 };
    renderApp({
      path: '/wallet/payment-success?payment=tr_abc123',
      mocks: [loggedInMock(visible), topUpMock(['open', status], asked)],
    });
    await elapse(TOP_UP_POLL_INTERVAL_MS);
    expect(await screen.findByRole('heading', { level: 1, name: title })).toBeTruthy();
    expect(screen.getByText(text)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Try again' }).getAttribute('href')).toBe('/wallet');
    expect(screen.queryByText('New available balance')).toBeNull();
  });

  it('says it is waiting for the bank when the payment is still open after the time limit', async () => {
    const asked = { count: 0 };
    renderApp({
      path: '/wallet/payment-success?payment=tr_abc123',
      mocks: [loggedInMock(visible), topUpMock(['open'], asked)],
    });
    await screen.findByRole('heading', { name: 'Checking your payment…' });
    await elapse(TOP_UP_POLL_TIMEOUT_MS + TOP_UP_POLL_INTERVAL_MS);
    expect(
      await screen.findByRole('heading', { level: 1, name: "We're waiting for your bank" }),
    ).toBeTruthy();
    const questions = asked.count;
    // About every 1.5 s for 30 s: some twenty questions, then it stops.
    expect(questions).toBeGreaterThanOrEqual(15);
    expect(questions).toBeLessThanOrEqual(21);
    await elapse(TOP_UP_POLL_INTERVAL_MS * 4);
    expect(asked.count).toBe(questions);

    // "Check again" starts a new round.
    fireEvent.click(screen.getByRole('button', { name: 'Check again' }));
    expect(await screen.findByRole('heading', { name: 'Checking your payment…' })).toBeTruthy();
    await elapse(TOP_UP_POLL_INTERVAL_MS);
    expect(asked.count).toBeGreaterThan(questions);
  });

  it('explains a refusal by the server (e.g. someone else’s payment)', async () => {
    renderApp({
      path: '/wallet/payment-success?payment=tr_other',
      mocks: [
        loggedInMock(visible),
        answerMock(
          TopUpDocument,
          () => true,
          {
            getTopUp: {
              __typename: 'TopUpResult',
              status: statusOf(false, 'wallet_not_for_user', 'Not yours'),
              topUp: null,
              wallet: null,
            },
          },
          { times: Number.POSITIVE_INFINITY },
        ),
      ],
    });
    const heading = await screen.findByRole('heading', {
      level: 1,
      name: "We couldn't check this payment",
    });
    const card = heading.closest('section')!;
    expect(within(card).getByText("This wallet doesn't belong to you.")).toBeTruthy();
    expect(within(card).getByRole('link', { name: 'Go to my wallet' })).toBeTruthy();
  });

  it('says so when the link has no payment reference', async () => {
    renderApp({ path: '/wallet/payment-success', mocks: [loggedInMock(visible)] });
    expect(
      await screen.findByRole('heading', { level: 1, name: "We couldn't find this payment" }),
    ).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Go to my wallet' }).getAttribute('href')).toBe(
      '/wallet',
    );
  });
});
