import { gql, type TypedDocumentNode } from '@apollo/client';
import type { ResponseStatus } from '../../../lib/graphql';

export interface ChallengeTargetQuery {
  getUserProfile: {
    status: ResponseStatus;
    profile: {
      id: string;
      username: string;
      displayName: string | null;
      challengeable: boolean;
    } | null;
  } | null;
}

export interface ChallengeTargetQueryVariables {
  username: string;
}

/**
 * Whether a username names someone who can be challenged (create step 1): user_not_found for
 * nobody, private_profile for a person whose profile is private (they exist).
 */
export const ChallengeTargetDocument: TypedDocumentNode<
  ChallengeTargetQuery,
  ChallengeTargetQueryVariables
> = gql`
  query ChallengeTarget($username: String!) {
    getUserProfile(username: $username) {
      status {
        success
        identifier
        message
      }
      profile {
        id
        username
        displayName
        challengeable
      }
    }
  }
`;
