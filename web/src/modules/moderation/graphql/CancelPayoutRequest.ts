import { gql, type TypedDocumentNode } from '@apollo/client';
import type { ResponseStatus } from '../../../lib/graphql';
import { PAYOUT_REQUEST_FIELDS, type PayoutRequest } from './PayoutRequests';

export interface CancelPayoutRequestMutation {
  cancelPayoutRequest: {
    status: ResponseStatus;
    payoutRequest: PayoutRequest | null;
  } | null;
}

export interface CancelPayoutRequestMutationVariables {
  id: string;
  reason: string;
}

/** Staff cancel an open or exported payout (e.g. the bank returned it): the money goes back. */
export const CancelPayoutRequestDocument: TypedDocumentNode<
  CancelPayoutRequestMutation,
  CancelPayoutRequestMutationVariables
> = gql`
  mutation CancelPayoutRequest($id: ID!, $reason: String!) {
    cancelPayoutRequest(id: $id, reason: $reason) {
      status {
        success
        identifier
        message
      }
      payoutRequest {
        ...PayoutRequestFields
      }
    }
  }
  ${PAYOUT_REQUEST_FIELDS}
`;
