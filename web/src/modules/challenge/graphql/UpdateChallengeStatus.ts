import { gql, type TypedDocumentNode } from '@apollo/client';
import type { ResponseStatus } from '../../../lib/graphql';

export interface UpdateChallengeStatusMutation {
  updateChallengeStatus: {
    status: ResponseStatus;
    challenge: { id: string; slug: string; status: string; proofPhrase: string | null } | null;
  } | null;
}

export interface UpdateChallengeStatusMutationVariables {
  input: {
    slug: string;
    /** accepted, refused (reason), completed (approve), referee (reject, reason). */
    status: 'accepted' | 'refused' | 'completed' | 'referee';
    reason?: string | null;
  };
}

export const UpdateChallengeStatusDocument: TypedDocumentNode<
  UpdateChallengeStatusMutation,
  UpdateChallengeStatusMutationVariables
> = gql`
  mutation UpdateChallengeStatus($input: UpdateChallengeStatusInput!) {
    updateChallengeStatus(input: $input) {
      status {
        success
        identifier
        message
      }
      challenge {
        id
        slug
        status
        proofPhrase
      }
    }
  }
`;
