import { gql, type TypedDocumentNode } from '@apollo/client';
import type { ResponseStatus } from '../../../lib/graphql';

export interface DeleteReportMutation {
  deleteReport: { status: ResponseStatus } | null;
}

export interface DeleteReportMutationVariables {
  input: { reportId: string };
}

/** The reporter withdraws their report while it is open (not_found once staff handled it). */
export const DeleteReportDocument: TypedDocumentNode<
  DeleteReportMutation,
  DeleteReportMutationVariables
> = gql`
  mutation DeleteReport($input: DeleteReportInput!) {
    deleteReport(input: $input) {
      status {
        success
        identifier
        message
      }
    }
  }
`;
