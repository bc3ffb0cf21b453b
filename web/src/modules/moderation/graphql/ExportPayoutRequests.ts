import { gql, type TypedDocumentNode } from '@apollo/client';
import type { ResponseStatus } from '../../../lib/graphql';

export const SEPA_FORMATS = ['pain.001.001.09', 'pain.001.001.03'] as const;
export type SepaFormat = (typeof SEPA_FORMATS)[number];

export interface ExportPayoutRequestsMutation {
  exportPayoutRequests: {
    status: ResponseStatus;
    fileName: string | null;
    xml: string | null;
    payoutCount: number | null;
    /** Integer euro cents. */
    totalAmount: number | null;
    /** Open payouts the file left out: held for review after an IBAN change. */
    heldForReviewCount: number | null;
    heldForReviewAmount: number | null;
  } | null;
}

export interface ExportPayoutRequestsMutationVariables {
  input: { format: SepaFormat; includeExported: boolean };
}

/** A SEPA credit-transfer file (XML) of the open payouts not yet exported, or of all open ones. */
export const ExportPayoutRequestsDocument: TypedDocumentNode<
  ExportPayoutRequestsMutation,
  ExportPayoutRequestsMutationVariables
> = gql`
  mutation ExportPayoutRequests($input: ExportPayoutRequestsInput) {
    exportPayoutRequests(input: $input) {
      status {
        success
        identifier
        message
      }
      fileName
      xml
      payoutCount
      totalAmount
      heldForReviewCount
      heldForReviewAmount
    }
  }
`;
