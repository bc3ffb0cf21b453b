import { gql, type TypedDocumentNode } from '@apollo/client';
import type { ResponseStatus } from '../../../lib/graphql';

export interface ReauthenticateMutation {
  reauthenticate: { status: ResponseStatus; proof: string | null } | null;
}

export interface ReauthenticateMutationVariables {
  input: { purpose: 'payment_profile'; password?: string; code?: string };
}

/** A short-lived proof that the person of this session holds the account (ADR 21). */
export const ReauthenticateDocument: TypedDocumentNode<
  ReauthenticateMutation,
  ReauthenticateMutationVariables
> = gql`
  mutation Reauthenticate($input: ReauthenticateInput!) {
    reauthenticate(input: $input) {
      status {
        success
        identifier
        message
      }
      proof
    }
  }
`;
