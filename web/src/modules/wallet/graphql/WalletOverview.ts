import { gql, type TypedDocumentNode } from '@apollo/client';
import type { ResponseStatus } from '../../../lib/graphql';
import type { WalletBalances } from './Wallet';

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

export interface WalletOverviewQuery {
  getWallet: { status: ResponseStatus; wallet: WalletOverview | null } | null;
}

export type WalletOverviewQueryVariables = Record<string, never>;

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

/** The wallet page's query: balances, the open payout amount and the top-up and payout limits. */
export const WalletOverviewDocument: TypedDocumentNode<
  WalletOverviewQuery,
  WalletOverviewQueryVariables
> = gql`
  query WalletOverview {
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
