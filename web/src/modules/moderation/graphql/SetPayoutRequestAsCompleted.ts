import { gql, type TypedDocumentNode } from '@apollo/client';
import type { ResponseStatus } from '../../../lib/graphql';
import { PAYOUT_REQUEST_FIELDS, type PayoutRequest } from './PayoutRequests';

export interface SetPayoutRequestAsCompletedMutation {
  setPayoutRequestAsCompleted: {
    status: ResponseStatus;
    payoutRequest: PayoutRequest | null;
  } | null;
}

export interface SetPayoutRequestAsCompletedMutationVariables {
  id: string;
}

/** Staff confirm the bank transfer went out; the frozen money leaves the wallet exactly once. */
export const SetPayoutRequestAsCompletedDocument: TypedDocumentNode<
  SetPayoutRequestAsCompletedMutation,
  SetPayoutRequestAsCompletedMutationVariables
> = gql`
  mutation SetPayoutRequestAsCompleted($id: ID!) {
    setPayoutRequestAsCompleted(id: $id) {
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
