import { gql, type TypedDocumentNode } from '@apollo/client';
import type { ResponseStatus } from '../../../lib/graphql';

export interface ShareChallengeLinkMutation {
  shareChallengeLink: {
    status: ResponseStatus;
    link: string | null;
    whatsappText: string | null;
    invitedCount: number | null;
  } | null;
}

export interface ShareChallengeLinkMutationVariables {
  input: { slug: string; emails: string; locale: 'en' | 'nl' };
}

/** Invites people by e-mail to look at a challenge (rate-limited by the server). */
export const ShareChallengeLinkDocument: TypedDocumentNode<
  ShareChallengeLinkMutation,
  ShareChallengeLinkMutationVariables
> = gql`
  mutation ShareChallengeLink($input: ShareChallengeLinkInput!) {
    shareChallengeLink(input: $input) {
      status {
        success
        identifier
        message
      }
      link
      whatsappText
      invitedCount
    }
  }
`;
