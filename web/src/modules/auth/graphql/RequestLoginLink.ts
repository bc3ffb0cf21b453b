import { gql, type TypedDocumentNode } from '@apollo/client';
import type { ResponseStatus } from '../../../lib/graphql';

export interface RequestLoginLinkMutation {
  requestLoginLink: { email: string | null; status: ResponseStatus } | null;
}

export interface RequestLoginLinkMutationVariables {
  /** originUrl is the page path without origin and query; the link brings the user back there. */
  input: { email: string; originUrl: string };
}

export const RequestLoginLinkDocument: TypedDocumentNode<
  RequestLoginLinkMutation,
  RequestLoginLinkMutationVariables
> = gql`
  mutation RequestLoginLink($input: RequestLoginLinkInput!) {
    requestLoginLink(input: $input) {
      email
      status {
        success
        identifier
        message
      }
    }
  }
`;
