import { gql, type TypedDocumentNode } from '@apollo/client';
import type { ResponseStatus } from '../../../lib/graphql';

export interface CurrentUserProfile {
  id: string;
  username: string;
  displayName: string | null;
  avatar: string | null;
  locale: string | null;
  roles: string[];
  hideAvailableAmount: boolean | null;
  /** The profile lists include the owner's private challenges (a setting, false by default). */
  showPrivateChallenges: boolean | null;
}

export interface CurrentUserQuery {
  getCurrentUserProfile: {
    status: ResponseStatus;
    profile: CurrentUserProfile | null;
  } | null;
}

export type CurrentUserQueryVariables = Record<string, never>;

export const CurrentUserDocument: TypedDocumentNode<CurrentUserQuery, CurrentUserQueryVariables> =
  gql`
    query CurrentUser {
      getCurrentUserProfile {
        status {
          success
          identifier
          message
        }
        profile {
          id
          username
          displayName
          avatar
          locale
          roles
          hideAvailableAmount
          showPrivateChallenges
        }
      }
    }
  `;
