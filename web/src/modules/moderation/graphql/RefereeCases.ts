import { gql, type TypedDocumentNode } from '@apollo/client';
import type { ResponseStatus } from '../../../lib/graphql';

interface CaseUser {
  id: string;
  username: string;
  displayName: string | null;
}

export interface RefereeCase {
  id: string;
  slug: string;
  challengeName: string;
  rewardCents: number;
  owner: CaseUser;
  challengedUser: CaseUser | null;
  /** Whose performance is disputed; null only for a case opened before sides were recorded. */
  performer: CaseUser | null;
  /** The judge's reason. */
  reason: string;
  /** The disputed side's proof video. */
  videoId: string | null;
  openedAt: string;
  deadline: string;
  overdue: boolean;
  caseStatus: string;
  challenge: {
    id: string;
    /** solo or duel. */
    challengeType: string;
    /** What the challenged user accepted: it cannot change once accepted (ADR 77). */
    challengeDescription: string;
    proofPhrase: string | null;
    challengeVideos: Array<{
      id: string;
      videoSource: string;
      recycledFrom: { challengeId: string } | null;
    }>;
  };
}

export interface RefereeCasesQuery {
  paginatedListOfRefereeChallenges: {
    status: ResponseStatus;
    items: RefereeCase[];
    pagination: { currentPage: number; totalPages: number; totalCount: number } | null;
  } | null;
}

export interface RefereeCasesQueryVariables {
  page: number;
  itemsPerPage?: number;
}

/** Referees and admins: the open referee cases, nearest deadline (overdue) first. */
export const RefereeCasesDocument: TypedDocumentNode<
  RefereeCasesQuery,
  RefereeCasesQueryVariables
> = gql`
  query RefereeCases($page: Int!, $itemsPerPage: Int) {
    paginatedListOfRefereeChallenges(page: $page, itemsPerPage: $itemsPerPage) {
      status {
        success
        identifier
        message
      }
      items {
        id
        slug
        challengeName
        rewardCents
        owner {
          id
          username
          displayName
        }
        challengedUser {
          id
          username
          displayName
        }
        performer {
          id
          username
          displayName
        }
        reason
        videoId
        openedAt
        deadline
        overdue
        caseStatus
        challenge {
          id
          challengeType
          challengeDescription
          proofPhrase
          challengeVideos {
            id
            videoSource
            recycledFrom {
              challengeId
            }
          }
        }
      }
      pagination {
        currentPage
        totalPages
        totalCount
      }
    }
  }
`;

export type RefereeDecision = 'approve' | 'reject';

export interface DecideRefereeCaseMutation {
  decideRefereeCase: { status: ResponseStatus } | null;
}

export interface DecideRefereeCaseMutationVariables {
  input: { caseId: string; decision: RefereeDecision; reason: string };
}

/** A referee decides a disputed challenge with a written reason; not one they take part in. */
export const DecideRefereeCaseDocument: TypedDocumentNode<
  DecideRefereeCaseMutation,
  DecideRefereeCaseMutationVariables
> = gql`
  mutation DecideRefereeCase($input: DecideRefereeCaseInput!) {
    decideRefereeCase(input: $input) {
      status {
        success
        identifier
        message
      }
    }
  }
`;
