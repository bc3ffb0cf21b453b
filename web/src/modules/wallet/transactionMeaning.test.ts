import { describe, expect, it } from 'vitest';
import { headlineChange, transactionMeaning } from './transactionMeaning';

const movement = (kind: string, availableChange: number, frozenChange: number) => ({
  kind,
  availableChange,
  frozenChange,
});

describe('transaction meaning', () => {
  it('names every ledger kind from the wallet owner’s side', () => {
    expect(transactionMeaning(movement('top_up', 1000, 0))).toBe('topUp');
    expect(transactionMeaning(movement('escrow_hold', -500, 500))).toBe('rewardHeld');
    expect(transactionMeaning(movement('escrow_capture', 0, -500))).toBe('rewardPaid');
    expect(transactionMeaning(movement('escrow_capture', 500, 0))).toBe('rewardReceived');
    expect(transactionMeaning(movement('escrow_release', 500, -500))).toBe('rewardReturned');
    expect(transactionMeaning(movement('payout_request', -2000, 2000))).toBe('payoutRequested');
    expect(transactionMeaning(movement('payout_complete', 0, -2000))).toBe('payoutPaid');
    expect(transactionMeaning(movement('payout_cancel', 2000, -2000))).toBe('payoutCancelled');
    expect(transactionMeaning(movement('refund', 300, 0))).toBe('refund');
    expect(transactionMeaning(movement('chargeback', -1000, 0))).toBe('chargeback');
    expect(transactionMeaning(movement('fee', -50, 0))).toBe('fee');
    expect(transactionMeaning(movement('something_new', 1, 0))).toBe('other');
  });

  // Issue 22, point 5: one reward, one line of money out. Holding a reward (or a payout) only
  // sets money aside inside the wallet; it leaves the wallet once, when it is paid.
  it('shows what came into or left the wallet: a reward or payout once, when it is paid', () => {
    expect(headlineChange(movement('escrow_hold', -500, 500))).toBe(0);
    expect(headlineChange(movement('escrow_capture', 0, -500))).toBe(-500);
    expect(headlineChange(movement('escrow_release', 500, -500))).toBe(0);
    expect(headlineChange(movement('payout_request', -2000, 2000))).toBe(0);
    expect(headlineChange(movement('payout_complete', 0, -2000))).toBe(-2000);
    expect(headlineChange(movement('payout_cancel', 2000, -2000))).toBe(0);
    expect(headlineChange(movement('escrow_capture', 500, 0))).toBe(500);
    expect(headlineChange(movement('top_up', 1000, 0))).toBe(1000);
  });
});
