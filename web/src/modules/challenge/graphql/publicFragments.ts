import { gql, type TypedDocumentNode } from '@apollo/client';
import type { ChallengeUser } from './fragments';

/** What a public list (discover, a profile's lists) shows of a challenge to anyone. */
export interface PublicChallengeSummary {
  id: string;
  slug: string;
  challengeName: string;
  /** Integer euro cents. */
  challengeReward: number;
  status: string;
  challengeType: string;
  createdAt: string;
  owner: ChallengeUser;
  challengedUser: ChallengeUser | null;
  /** How many users respect it (docs/adr/0043). */
  challengeLikesCount: number;
  /**
   * Media's signed link to the thumbnail of the newest proof video (one hour), null when there is
   * none or the viewer may not see it (docs/adr/0056). Optional: older cached results lack it.
   */
  thumbnailUrl?: string | null;
}

/**
 * The fields of a `PublicChallengeSummary` as plain selection text, for documents that cannot
 * spread the fragment (the gateway's depth limit counts a spread as a level).
 */
export const PUBLIC_CHALLENGE_SUMMARY_SELECTION = `
    id
    slug
    challengeName
    challengeReward
    status
    challengeType
    createdAt
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
    challengeLikesCount
    thumbnailUrl
`;

export const PublicChallengeSummaryFields: TypedDocumentNode<PublicChallengeSummary> = gql`
  fragment PublicChallengeSummaryFields on Challenge {
    ${PUBLIC_CHALLENGE_SUMMARY_SELECTION}
  }
`;
