import { gql, type TypedDocumentNode } from '@apollo/client';
import type { ResponseStatus } from '../../../lib/graphql';

export interface UpdateProfileMutation {
  updateProfile: {
    status: ResponseStatus;
    displayName: string | null;
    bio: string | null;
    avatar: string | null;
  } | null;
}

export interface UpdateProfileMutationVariables {
  input: {
    displayName?: string | null;
    bio?: string | null;
    /**
     * null removes the picture. A new one is a file, sent as a multipart request instead
     * (avatarUpload.ts); any other JSON value is refused (invalid_file).
     */
    avatar?: null;
    /** The wallet's show/hide amounts choice; omit to leave it. */
    hideAvailableAmount?: boolean;
    /** Whether the owner's profile lists include their private challenges; omit to leave it. */
    showPrivateChallenges?: boolean;
  };
}

export const UpdateProfileDocument: TypedDocumentNode<
  UpdateProfileMutation,
  UpdateProfileMutationVariables
> = gql`
  mutation UpdateProfile($input: UpdateProfileInput!) {
    updateProfile(input: $input) {
      status {
        success
        identifier
        message
      }
      displayName
      bio
      avatar
    }
  }
`;
