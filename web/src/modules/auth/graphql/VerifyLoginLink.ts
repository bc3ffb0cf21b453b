import { gql, type TypedDocumentNode } from '@apollo/client';
import type { ResponseStatus } from '../../../lib/graphql';
import type { Suspension } from '../suspension';

export interface VerifyLoginLinkMutation {
  verifyLoginLink: {
    /** Null unless status.success: true logs an existing account in, false starts a sign-up. */
    isVerified: boolean | null;
    originUrl: string | null;
    status: ResponseStatus;
    suspension?: Suspension | null;
  } | null;
}

export interface VerifyLoginLinkMutationVariables {
  input: { email: string; hash: string; expires: number };
}

// The access token never reaches the browser: the gateway turns a successful login into the
// session cookie, so only the outcome is selected here.
export const VerifyLoginLinkDocument: TypedDocumentNode<
  VerifyLoginLinkMutation,
  VerifyLoginLinkMutationVariables
> = gql`
  mutation VerifyLoginLink($input: VerifyLoginLinkInput!) {
    verifyLoginLink(input: $input) {
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
