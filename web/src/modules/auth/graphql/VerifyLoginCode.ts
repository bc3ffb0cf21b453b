import { gql, type TypedDocumentNode } from '@apollo/client';
import type { ResponseStatus } from '../../../lib/graphql';
import type { Suspension } from '../suspension';

export interface VerifyLoginCodeMutation {
  verifyLoginCode: {
    isVerified: boolean | null;
    originUrl: string | null;
    status: ResponseStatus;
    suspension?: Suspension | null;
  } | null;
}

export interface VerifyLoginCodeMutationVariables {
  input: { email: string; code: string };
}

// The access token never reaches the browser: the gateway turns a successful login into the
// session cookie, so only the outcome is selected here.
export const VerifyLoginCodeDocument: TypedDocumentNode<
  VerifyLoginCodeMutation,
  VerifyLoginCodeMutationVariables
> = gql`
  mutation VerifyLoginCode($input: VerifyLoginCodeInput!) {
    verifyLoginCode(input: $input) {
      isVerified
      originUrl
      status {
        success
        identifier
        message
      }
      suspension {
        type
        reason
        since
      }
    }
  }
`;
