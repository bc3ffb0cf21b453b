import { gql, type TypedDocumentNode } from '@apollo/client';
import type { ResponseStatus } from '../../../lib/graphql';

export interface VerifyUserMutation {
  verifyUser: { status: ResponseStatus } | null;
}

export interface VerifyUserInput {
  email: string;
  /** The code from the e-mail, or the link's hash and expires. */
  code?: string;
  hash?: string;
  expires?: number;
  username: string;
  password: string;
  repeatPassword: string;
  /** YYYY-MM-DD. */
  birthday: string;
  phoneNumber: string | null;
  /** Derived from the birthday (18 or older); the server derives it again. */
  eighteenPlusContent: boolean;
  acceptTerms: boolean;
}

export interface VerifyUserMutationVariables {
  input: VerifyUserInput;
}

// Completes a sign-up. The gateway sets the session cookie from the token identity returns; the
// token itself is never selected.
export const VerifyUserDocument: TypedDocumentNode<
  VerifyUserMutation,
  VerifyUserMutationVariables
> = gql`
  mutation VerifyUser($input: VerifyUserInput!) {
    verifyUser(input: $input) {
      status {
        success
        identifier
        message
      }
    }
  }
`;
