import { gql, type TypedDocumentNode } from '@apollo/client';
import type { ResponseStatus } from '../../../lib/graphql';
import type { ChallengeUser } from './fragments';

export interface ChallengeDetail {
  id: string;
  slug: string;
  challengeName: string;
  challengeDescription: string;
  /** Integer euro cents. */
  challengeReward: number;
  status: string;
  visibility: string;
  expirationDate: string;
  expirationTimeWeeks: number;
  challengeType: string;
  judgedByReferee: boolean;
  challengeFailedComment: string | null;
  reason: string | null;
  challengedEmail: string | null;
  proofPhrase: string | null;
  acceptedAt: string | null;
  judgingDeadline: string | null;
  createdAt: string;
  tags: { name: string }[];
  owner: ChallengeUser;
  challengedUser: ChallengeUser | null;
  /** A duel's two performances once accepted, the owner's first; empty for a solo challenge. */
  sides: ChallengeSide[];
  /** How many users respect it (docs/adr/0043). */
  challengeLikesCount: number;
  /** Whether the viewer respects it; false for a visitor. */
  hasLiked: boolean;
}

export type SideStatus = 'awaiting_video' | 'review' | 'referee' | 'completed' | 'failed';

export interface ChallengeSide {
  performer: { id: string };
  status: SideStatus;
  reason: string | null;
  judgedByReferee: boolean;
  challengeFailedComment: string | null;
  judgingDeadline: string | null;
}

export interface ChallengeBySlugQuery {
  getChallengeBySlug: { status: ResponseStatus; challenge: ChallengeDetail | null } | null;
}

export interface ChallengeBySlugQueryVariables {
  slug: string;
}

/** One challenge with every field the detail page shows (challenge_not_found when hidden). */
export const ChallengeBySlugDocument: TypedDocumentNode<
  ChallengeBySlugQuery,
  ChallengeBySlugQueryVariables
> = gql`
  query ChallengeBySlug($slug: String!) {
    getChallengeBySlug(input: { slug: $slug }) {
      status {
        success
        identifier
        message
      }
      challenge {
        id
        slug
        challengeName
        challengeDescription
        challengeReward
        status
        visibility
        expirationDate
        expirationTimeWeeks
        challengeType
        judgedByReferee
        challengeFailedComment
        reason
        challengedEmail
        proofPhrase
        acceptedAt
        judgingDeadline
        challengeLikesCount
        hasLiked
        createdAt
        tags {
          name
        }
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
        sides {
          performer {
            id
          }
          status
          reason
          judgedByReferee
          challengeFailedComment
          judgingDeadline
        }
      }
    }
  }
`;
