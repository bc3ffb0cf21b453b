import { gql, type TypedDocumentNode } from '@apollo/client';
import type { ResponseStatus } from '../../../lib/graphql';

/** Ledger figures in euro cents (Float in the schema: sums can pass the 32-bit range). */
export interface MoneyTotals {
  walletSum: number;
  totalBalance: number;
  totalMoneyTopUps: number;
  totalMoneyPayouts: number;
}

export interface MoneyTotalsQuery {
  totalMoneyInCirculation: { status: ResponseStatus; totals: MoneyTotals | null } | null;
}

export type MoneyTotalsQueryVariables = Record<string, never>;

/** Moderators and admins: the money in the system, from the wallet ledger. */
export const MoneyTotalsDocument: TypedDocumentNode<MoneyTotalsQuery, MoneyTotalsQueryVariables> =
  gql`
    query MoneyTotals {
      totalMoneyInCirculation {
        status {
          success
          identifier
          message
        }
        totals {
          walletSum
          totalBalance
          totalMoneyTopUps
          totalMoneyPayouts
        }
      }
    }
  `;
