import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import {
  alice,
  loggedInMock,
  loggedOutMock,
  walletFailureMock,
  walletMock,
} from '../../../test/mocks';
import { renderApp } from '../../../test/renderApp';
import { HIDE_AMOUNTS_STORAGE_KEY } from '../hooks/useHideAmounts';

const balances = { availableAmount: 123456, freezeAmount: 2500, totalAmount: 125956 };
const plain = (text: string | null) => (text ?? '').replace(/[\u00a0\u202f]/g, ' ');

describe('wallet page', () => {
  it('asks a logged-out visitor to log in instead of loading the wallet', async () => {
    renderApp({ path: '/wallet', mocks: [loggedOutMock()] });
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Log in to continue' }),
    ).toBeTruthy();
    expect(screen.queryByRole('heading', { level: 1, name: 'Wallet' })).toBeNull();
  });

  it('shows the balances as euros from cents', async () => {
    renderApp({
      path: '/wallet',
      mocks: [loggedInMock({ ...alice, hideAvailableAmount: false }), walletMock(balances)],
    });
    const available = await screen.findByRole('region', { name: 'Available balance' });
    expect(plain(within(available).getByText(/€/).textContent)).toBe('€1,234.56');
    expect(
      plain(within(screen.getByRole('region', { name: 'Pending' })).getByText(/€/).textContent),
    ).toBe('€25.00');
    expect(
      plain(within(screen.getByRole('region', { name: 'Total' })).getByText(/€/).textContent),
    ).toBe('€1,259.56');
  });

  it('formats in Dutch for a Dutch user interface', async () => {
    renderApp({
      path: '/wallet',
      language: 'nl',
      mocks: [loggedInMock({ ...alice, hideAvailableAmount: false }), walletMock(balances)],
    });
    const available = await screen.findByRole('region', { name: 'Beschikbaar saldo' });
    expect(plain(within(available).getByText(/€/).textContent)).toBe('€ 1.234,56');
  });

  it('hides amounts when the profile says so, and the toggle reveals them and is remembered', async () => {
    renderApp({
      path: '/wallet',
      mocks: [loggedInMock({ ...alice, hideAvailableAmount: true }), walletMock(balances)],
    });
    const available = await screen.findByRole('region', { name: 'Available balance' });
    expect(within(available).getByText('Amount hidden')).toBeTruthy();
    expect(available.textContent).not.toContain('1,234.56');

    const toggle = screen.getByRole('button', { name: 'Show amounts' });
    expect(toggle.getAttribute('aria-pressed')).toBe('true');
    fireEvent.click(toggle);
    expect(plain(available.textContent)).toContain('€1,234.56');
    expect(screen.getByRole('button', { name: 'Hide amounts' }).getAttribute('aria-pressed')).toBe(
      'false',
    );
    expect(window.localStorage.getItem(HIDE_AMOUNTS_STORAGE_KEY)).toBe('false');
  });

  it('explains a failed wallet answer with the translated identifier', async () => {
    renderApp({ path: '/wallet', mocks: [loggedInMock(), walletFailureMock('wallet_not_found')] });
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText("We couldn't find your wallet.")).toBeTruthy();
    expect(within(alert).getByRole('button', { name: 'Try again' })).toBeTruthy();
  });
});
