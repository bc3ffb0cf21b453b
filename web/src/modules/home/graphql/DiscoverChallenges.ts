import { gql, type TypedDocumentNode } from '@apollo/client';
import type { ResponseStatus } from '../../../lib/graphql';
import {
  PublicChallengeSummaryFields,
  type PublicChallengeSummary,
} from '../../challenge/graphql/publicFragments';

/** all, solo, duel, or following (challenges of the people the viewer follows; logged in). */
export type DiscoverChallengesList = 'all' | 'solo' | 'duel' | 'following';

export interface Pagination {
  currentPage: number;
  totalPages: number;
  totalCount: number;
}

export interface DiscoverChallengesQuery {
  discoverChallenges: {
    status: ResponseStatus;
    challenges: PublicChallengeSummary[] | null;
    pagination: Pagination | null;
  };
}

export interface DiscoverChallengesVariables {
  input: { list: DiscoverChallengesList; page: number; itemsPerPage: number };
}

/** One page of a discover list of challenges, newest first. */
export const DiscoverChallengesDocument: TypedDocumentNode<
  DiscoverChallengesQuery,
  DiscoverChallengesVariables
> = gql`
  query DiscoverChallenges($input: DiscoverChallengesInput) {
    discoverChallenges(input: $input) {
      status {
        success
        identifier
        message
      }
      challenges {
        ...PublicChallengeSummaryFields
      }
      pagination {
        currentPage
        totalPages
        totalCount
      }
    }
  }
  ${PublicChallengeSummaryFields}
`;
