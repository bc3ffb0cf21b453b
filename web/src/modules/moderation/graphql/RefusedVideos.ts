import { gql, type TypedDocumentNode } from '@apollo/client';
import type { ResponseStatus } from '../../../lib/graphql';

interface CaseUser {
  id: string;
  username: string;
  displayName: string | null;
}

/** A proof video its challenge's owner rejected: a referee case, open or decided (ADR 57). */
export interface RefusedVideo {
  id: string;
  slug: string;
  challengeName: string;
  rewardCents: number;
  owner: CaseUser;
  challengedUser: CaseUser | null;
  /** Whose performance was refused; null only for a case opened before sides were recorded. */
  performer: CaseUser | null;
  /** The judge's rejection reason. */
  reason: string;
  videoId: string | null;
  openedAt: string;
  deadline: string;
  overdue: boolean;
  /** open, decided, or withdrawn (the challenge ended another way). */
  caseStatus: string;
  /** approved or failed once decided. */
  decision: string | null;
  /** The referee's written reason. */
  comment: string | null;
  referee: CaseUser | null;
  decidedAt: string | null;
  challenge: {
    id: string;
    /** solo or duel. */
    challengeType: string;
    challengeVideos: Array<{
      id: string;
      videoSource: string;
      recycledFrom: { challengeId: string } | null;
    }>;
  };
}

export interface RefusedVideosQuery {
  paginatedListOfRefusedVideos: {
    status: ResponseStatus;
    items: RefusedVideo[];
    pagination: { currentPage: number; totalPages: number; totalCount: number } | null;
  } | null;
}

export interface RefusedVideosQueryVariables {
  page: number;
  itemsPerPage?: number;
}

/** Referees and admins: every refused proof video, newest first, with the referee's outcome. */
export const RefusedVideosDocument: TypedDocumentNode<
  RefusedVideosQuery,
  RefusedVideosQueryVariables
> = gql`
  query RefusedVideos($page: Int!, $itemsPerPage: Int) {
    paginatedListOfRefusedVideos(page: $page, itemsPerPage: $itemsPerPage) {
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
        decision
        comment
        referee {
          id
          username
          displayName
        }
        decidedAt
        challenge {
          id
          challengeType
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
