import { gql, type TypedDocumentNode } from '@apollo/client';
import type { ResponseStatus } from '../../../lib/graphql';
import { WALLET_OVERVIEW_FIELDS, type WalletOverview } from './Wallet';

export interface RequestedPayout {
  id: string;
  /** Integer euro cents. */
  amount: number;
  accountNumber: string;
  status: string;
  createdAt: string;
}

export interface RequestPayoutMutation {
  payoutRequest: {
    status: ResponseStatus;
    payoutRequest: RequestedPayout | null;
    wallet: WalletOverview | null;
  } | null;
}

export interface RequestPayoutMutationVariables {
  input: {
    /** Integer euro cents. */
    amount: number;
    /** 8-100 characters, one per form submission: a repeat answers the first payout. */
    idempotencyKey?: string | null;
  };
}

/** Asks staff to pay `amount` cents out to the bank account of the payment profile. */
export const RequestPayoutDocument: TypedDocumentNode<
  RequestPayoutMutation,
  RequestPayoutMutationVariables
> = gql`
  mutation RequestPayout($input: PayoutRequestInput!) {
    payoutRequest(input: $input) {
      status {
        success
        identifier
        message
      }
      payoutRequest {
        id
        amount
        accountNumber
        status
        createdAt
      }
      wallet {
        ...WalletOverviewFields
      }
    }
  }
  ${WALLET_OVERVIEW_FIELDS}
`;
