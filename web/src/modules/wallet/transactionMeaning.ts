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
 * The amount to show for a movement, in cents: what came into or left the wallet (available and
 * reserved together). Holding a reward or asking a payout only sets money aside inside the
 * wallet (0 here); the money leaves once, when the reward or payout is paid (issue 22, point 5).
 */
export function headlineChange(
  transaction: Pick<WalletTransaction, 'availableChange' | 'frozenChange'>,
): number {
  return transaction.availableChange + transaction.frozenChange;
}
