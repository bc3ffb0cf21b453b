import { gql, type TypedDocumentNode } from '@apollo/client';
import type { ResponseStatus } from '../../../lib/graphql';

/** All amounts are integer euro cents. */
export interface WalletBalances {
  availableAmount: number;
  freezeAmount: number;
  totalAmount: number;
}

export interface WalletQuery {
  getWallet: { status: ResponseStatus; wallet: WalletBalances | null } | null;
}

export type WalletQueryVariables = Record<string, never>;

export const WalletDocument: TypedDocumentNode<WalletQuery, WalletQueryVariables> = gql`
  query Wallet {
    getWallet {
      status {
        success
        identifier
        message
      }
      wallet {
        availableAmount
        freezeAmount
        totalAmount
      }
    }
  }
`;
