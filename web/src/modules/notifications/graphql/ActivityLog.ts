import { gql, type TypedDocumentNode } from '@apollo/client';
import type { ResponseStatus } from '../../../lib/graphql';

/** The activity-log entry types of the product spec (section 3). */
export type ActivityType =
  | 'invited'
  | 'accepted'
  | 'refused'
  | 'video_uploaded'
  | 'completed'
  | 'failed'
  | 'liked'
  | 'commented'
  | 'referee'
  | 'expired';

export interface ActivityLogEntry {
  id: string;
  type: ActivityType;
  challenge: {
    id: string;
    slug: string;
    challengeName: string;
    /** Integer euro cents. */
    challengeReward: number;
  };
  /** The other party: who did it, or with whom; null when there is none. */
  user: {
    id: string;
    username: string;
    displayName: string | null;
    avatar: string | null;
  } | null;
  /** ISO 8601. */
  timestamp: string;
}

export interface Pagination {
  currentPage: number;
  totalPages: number;
  totalCount: number;
}

export interface ActivityLogQuery {
  getActivityLogByUser: {
    status: ResponseStatus;
    items: ActivityLogEntry[];
    pagination: Pagination | null;
  } | null;
}

export interface ActivityLogQueryVariables {
  page: number;
  itemsPerPage: number;
}

export const ActivityLogDocument: TypedDocumentNode<ActivityLogQuery, ActivityLogQueryVariables> =
  gql`
    query ActivityLog($page: Int, $itemsPerPage: Int) {
      getActivityLogByUser(page: $page, itemsPerPage: $itemsPerPage) {
        status {
          success
          identifier
          message
        }
        items {
          id
          type
          challenge {
            id
            slug
            challengeName
            challengeReward
          }
          user {
            id
            username
            displayName
            avatar
          }
          timestamp
        }
        pagination {
          currentPage
          totalPages
          totalCount
        }
      }
    }
  `;
