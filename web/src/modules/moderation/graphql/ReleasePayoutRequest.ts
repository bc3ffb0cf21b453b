import { gql, type TypedDocumentNode } from '@apollo/client';
import type { ResponseStatus } from '../../../lib/graphql';
import { PAYOUT_REQUEST_FIELDS, type PayoutRequest } from './PayoutRequests';

export interface ReleasePayoutRequestMutation {
  releasePayoutRequest: {
    status: ResponseStatus;
    payoutRequest: PayoutRequest | null;
  } | null;
}

export interface ReleasePayoutRequestMutationVariables {
  id: string;
}

/** Staff checked a payout held after an IBAN change: it may be exported and paid from now on. */
export const ReleasePayoutRequestDocument: TypedDocumentNode<
  ReleasePayoutRequestMutation,
  ReleasePayoutRequestMutationVariables
> = gql`
  mutation ReleasePayoutRequest($id: ID!) {
    releasePayoutRequest(id: $id) {
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
