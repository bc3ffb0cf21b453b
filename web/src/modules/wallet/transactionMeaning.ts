import type { WalletTransaction } from './graphql/WalletTransactions';

/**
 * What a movement means to the wallet's owner. One ledger kind can mean two things: the capture
 * of an escrow is "reward paid" for the challenge owner and "reward received" for the winner.
 */
export type TransactionMeaning =
  | 'topUp'
  | 'rewardHeld'
  | 'rewardPaid'
  | 'rewardReceived'
  | 'rewardReturned'
  | 'payoutRequested'
  | 'payoutPaid'
  | 'payoutCancelled'
  | 'refund'
  | 'chargeback'
  | 'fee'
  | 'other';

export function transactionMeaning(
  transaction: Pick<WalletTransaction, 'kind' | 'availableChange' | 'frozenChange'>,
): TransactionMeaning {
  switch (transaction.kind) {
    case 'top_up':
      return 'topUp';
    case 'escrow_hold':
      return 'rewardHeld';
    case 'escrow_capture':
      return transaction.availableChange > 0 ? 'rewardReceived' : 'rewardPaid';
    case 'escrow_release':
      return 'rewardReturned';
    case 'payout_request':
      return 'payoutRequested';
    case 'payout_complete':
      return 'payoutPaid';
    case 'payout_cancel':
      return 'payoutCancelled';
    case 'refund':
      return 'refund';
    case 'chargeback':
      return 'chargeback';
    case 'fee':
      return 'fee';
    default:
      return 'other';
  }
}

/**
 * The amount to show for a movement, in cents: the change of the available balance, or, when only
 * reserved money moved (a reward or payout leaving the pending balance), that change.
 */
export function headlineChange(
  transaction: Pick<WalletTransaction, 'availableChange' | 'frozenChange'>,
): number {
  return transaction.availableChange !== 0 ? transaction.availableChange : transaction.frozenChange;
}
