import { gql, type TypedDocumentNode } from '@apollo/client';
import type { ResponseStatus } from '../../../lib/graphql';
import type { WalletBalances } from './Wallet';

/** open, paid, failed, canceled or expired (the provider's status of the payment). */
export type PaymentStatus = string;

export interface TopUp {
  id: string;
  /** Integer euro cents. */
  amount: number;
  paymentStatus: PaymentStatus;
  originUrl: string;
  createdAt: string;
  paidAt: string | null;
}

export interface TopUpQuery {
  getTopUp: {
    status: ResponseStatus;
    topUp: TopUp | null;
    wallet: WalletBalances | null;
  } | null;
}

export interface TopUpQueryVariables {
  id: string;
}

/** A top-up started by InitializePayment, with the wallet as it is now (its owner only). */
export const TopUpDocument: TypedDocumentNode<TopUpQuery, TopUpQueryVariables> = gql`
  query TopUp($id: ID!) {
    getTopUp(id: $id) {
      status {
        success
        identifier
        message
      }
      topUp {
        id
        amount
        paymentStatus
        originUrl
        createdAt
        paidAt
      }
      wallet {
        availableAmount
        freezeAmount
        totalAmount
      }
    }
  }
`;
