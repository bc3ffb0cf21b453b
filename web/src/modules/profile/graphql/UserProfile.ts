import { gql, type TypedDocumentNode } from '@apollo/client';
import type { ResponseStatus } from '../../../lib/graphql';

export interface PublicProfile {
  id: string;
  username: string;
  displayName: string | null;
  bio: string | null;
  avatar: string | null;
  challengeable: boolean;
  publicProfile: boolean;
  followersCount: number;
  followingCount: number;
  /** Whether the viewer follows this user. */
  isFollowing: boolean;
}

export interface UserProfileQuery {
  getUserProfile: { status: ResponseStatus; profile: PublicProfile | null } | null;
}

export interface UserProfileQueryVariables {
  username: string;
  showPrivate?: boolean;
}

/** Another user's profile as the viewer may see it (user_not_found, private_profile otherwise). */
export const UserProfileDocument: TypedDocumentNode<UserProfileQuery, UserProfileQueryVariables> =
  gql`
    query UserProfile($username: String!, $showPrivate: Boolean) {
      getUserProfile(username: $username, showPrivate: $showPrivate) {
        status {
          success
          identifier
          message
        }
        profile {
          id
          username
          displayName
          bio
          avatar
          challengeable
          publicProfile
          followersCount
          followingCount
          isFollowing
        }
      }
    }
  `;
