import { gql, type TypedDocumentNode } from '@apollo/client';
import type { ResponseStatus } from '../../../lib/graphql';

export interface UserSettings {
  displayName: string | null;
  bio: string | null;
  avatar: string | null;
  challengeable: boolean;
  minimumChallengeEnabled: boolean;
  /** Integer euro cents. */
  minimumChallengeValue: number;
  publicProfile: boolean;
  hasPassword: boolean;
}

export interface SettingsQuery {
  getSettings: { status: ResponseStatus; settings: UserSettings | null } | null;
}

export type SettingsQueryVariables = Record<string, never>;

/** The viewer's own settings. */
export const SettingsDocument: TypedDocumentNode<SettingsQuery, SettingsQueryVariables> = gql`
  query Settings {
    getSettings {
      status {
        success
        identifier
        message
      }
      settings {
        displayName
        bio
        avatar
        challengeable
        minimumChallengeEnabled
        minimumChallengeValue
        publicProfile
        hasPassword
      }
    }
  }
`;
