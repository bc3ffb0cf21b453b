import { gql, type TypedDocumentNode } from '@apollo/client';
import type { ResponseStatus } from '../../../lib/graphql';

/** An invited address and whether it gets invitations (docs/adr/0074). */
export interface InvitationOptOut {
  email: string;
  optedOut: boolean;
}

export interface InvitationOptOutResult {
  status: ResponseStatus;
  invitationOptOut: InvitationOptOut | null;
}

export interface InvitationOptOutQuery {
  getInvitationOptOut: InvitationOptOutResult | null;
}

export interface InvitationOptOutQueryVariables {
  /** The token of the opt-out link in an invitation. */
  input: { token: string };
}

export const InvitationOptOutDocument: TypedDocumentNode<
  InvitationOptOutQuery,
  InvitationOptOutQueryVariables
> = gql`
  query InvitationOptOut($input: InvitationOptOutInput!) {
    getInvitationOptOut(input: $input) {
      status {
        success
        identifier
        message
      }
      invitationOptOut {
        email
        optedOut
      }
    }
  }
`;

export interface UpdateInvitationOptOutMutation {
  updateInvitationOptOut: InvitationOptOutResult | null;
}

export interface UpdateInvitationOptOutMutationVariables {
  input: { token: string; optedOut: boolean };
}

export const UpdateInvitationOptOutDocument: TypedDocumentNode<
  UpdateInvitationOptOutMutation,
  UpdateInvitationOptOutMutationVariables
> = gql`
  mutation UpdateInvitationOptOut($input: UpdateInvitationOptOutInput!) {
    updateInvitationOptOut(input: $input) {
      status {
        success
        identifier
        message
      }
      invitationOptOut {
        email
        optedOut
      }
    }
  }
`;
