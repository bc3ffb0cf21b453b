import { gql, type TypedDocumentNode } from '@apollo/client';
import type { EmailPreferencesResult } from './EmailPreferences';

export interface UpdateEmailPreferencesMutation {
  updateEmailPreferences: EmailPreferencesResult | null;
}

export interface UpdateEmailPreferencesMutationVariables {
  input: {
    token: string | null;
    newChallenge?: boolean;
    updateChallenge?: boolean;
    completedChallenge?: boolean;
    marketing?: boolean;
  };
}

export const UpdateEmailPreferencesDocument: TypedDocumentNode<
  UpdateEmailPreferencesMutation,
  UpdateEmailPreferencesMutationVariables
> = gql`
  mutation UpdateEmailPreferences($input: UpdateEmailPreferencesInput!) {
    updateEmailPreferences(input: $input) {
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
