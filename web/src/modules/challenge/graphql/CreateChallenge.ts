import { gql, type TypedDocumentNode } from '@apollo/client';
import type { ResponseStatus } from '../../../lib/graphql';

export interface CreateChallengeMutation {
  createChallenge: {
    status: ResponseStatus;
    challenges: { slug: string; challengeName: string }[] | null;
  } | null;
}

export interface CreateChallengeInput {
  challengeName: string;
  challengeDescription: string;
  /** Integer euro cents. */
  challengeReward: number;
  tags: string[];
  visibility: 'public' | 'private';
  challengeType: 'solo' | 'duel';
  expirationTimeWeeks?: number | null;
  /** ISO 8601; wins over expirationTimeWeeks. */
  expirationDate?: string | null;
  acceptCredit: boolean;
  challengedUsername?: string | null;
  challengedUserEmailsString?: string | null;
}

export interface CreateChallengeMutationVariables {
  input: CreateChallengeInput;
}

/** Creates one challenge per target (a username, or each of the e-mail addresses). */
export const CreateChallengeDocument: TypedDocumentNode<
  CreateChallengeMutation,
  CreateChallengeMutationVariables
> = gql`
  mutation CreateChallenge($input: CreateChallengeInput!) {
    createChallenge(input: $input) {
      status {
        success
        identifier
        message
      }
      challenges {
        slug
        challengeName
      }
    }
  }
`;
