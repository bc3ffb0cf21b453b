import { gql, type TypedDocumentNode } from '@apollo/client';
import type { ResponseStatus } from '../../../lib/graphql';

/** Null: the user has not chosen yet, and the default applies (see PREFERENCE_DEFAULTS). */
export interface EmailPreferences {
  newChallenge: boolean | null;
  updateChallenge: boolean | null;
  completedChallenge: boolean | null;
  marketing: boolean | null;
}

export type PreferenceTopic = keyof EmailPreferences;

export interface EmailPreferencesResult {
  status: ResponseStatus;
  emailPreferences: EmailPreferences | null;
}

export interface EmailPreferencesQuery {
  getEmailPreferences: EmailPreferencesResult | null;
}

export interface EmailPreferencesQueryVariables {
  /** The token of an e-mail's preferences link; without it, the logged-in user's. */
  input: { token: string | null };
}

export const EmailPreferencesDocument: TypedDocumentNode<
  EmailPreferencesQuery,
  EmailPreferencesQueryVariables
> = gql`
  query EmailPreferences($input: EmailPreferencesInput) {
    getEmailPreferences(input: $input) {
      status {
        success
        identifier
        message
      }
      emailPreferences {
        newChallenge
        updateChallenge
        completedChallenge
        marketing
      }
    }
  }
`;
