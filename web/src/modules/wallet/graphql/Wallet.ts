import { gql, type TypedDocumentNode } from '@apollo/client';
import type { ResponseStatus } from '../../../lib/graphql';

/** All amounts are integer euro cents. */
export interface WalletBalances {
  availableAmount: number;
  freezeAmount: number;
  totalAmount: number;
}

/** The configured limits and this calendar month's use, all in integer euro cents. */
export interface WalletLimits {
  minimumPayout: number;
  minimumTopUp: number;
  monthlyDepositLimit: number;
  monthlyWithdrawalLimit: number;
  depositedThisMonth: number;
  withdrawnThisMonth: number;
}

/** Everything the wallet page shows about the balance; amounts in integer euro cents. */
export interface WalletOverview extends WalletBalances {
  /** Asked out and not yet paid by staff (part of the frozen amount). */
  openPayoutAmount: number;
  currency: string;
  limits: WalletLimits;
}

export interface WalletQuery {
  getWallet: { status: ResponseStatus; wallet: WalletOverview | null } | null;
}

export type WalletQueryVariables = Record<string, never>;

export const WALLET_OVERVIEW_FIELDS = gql`
  fragment WalletOverviewFields on Wallet {
    availableAmount
    freezeAmount
    totalAmount
    openPayoutAmount
    currency
    limits {
      minimumPayout
      minimumTopUp
      monthlyDepositLimit
      monthlyWithdrawalLimit
      depositedThisMonth
      withdrawnThisMonth
    }
  }
`;

/** The logged-in user's wallet: balances, the open payout amount and the top-up and payout limits. */
export const WalletDocument: TypedDocumentNode<WalletQuery, WalletQueryVariables> = gql`
  query Wallet {
    getWallet {
      status {
        success
        identifier
        message
      }
      wallet {
        ...WalletOverviewFields
      }
    }
  }
  ${WALLET_OVERVIEW_FIELDS}
`;
