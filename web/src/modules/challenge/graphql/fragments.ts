import { gql, type TypedDocumentNode } from '@apollo/client';

/** A party of a challenge as anyone may see them (identity resolves the fields). */
export interface ChallengeUser {
  id: string;
  username: string;
  displayName: string | null;
  avatar: string | null;
}

export type ChallengeStatusValue =
  | 'draft'
  | 'open'
  | 'accepted'
  | 'review'
  | 'referee'
  | 'completed'
  | 'refused'
  | 'failed'
  | 'expired'
  | 'cancelled';

/** What a list (dashboard) shows of a challenge. */
export interface ChallengeSummary {
  id: string;
  slug: string;
  challengeName: string;
  /** Integer euro cents. */
  challengeReward: number;
  status: string;
  visibility: string;
  expirationDate: string;
  challengeType: string;
  owner: ChallengeUser;
  challengedUser: ChallengeUser | null;
  challengedEmail: string | null;
}

export const ChallengeSummaryFields: TypedDocumentNode<ChallengeSummary> = gql`
  fragment ChallengeSummaryFields on Challenge {
    id
    slug
    challengeName
    challengeReward
    status
    visibility
    expirationDate
    challengeType
    owner {
      id
      username
      displayName
      avatar
    }
    challengedUser {
      id
      username
      displayName
      avatar
    }
    challengedEmail
  }
`;
