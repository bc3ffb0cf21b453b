import { gql, type TypedDocumentNode } from '@apollo/client';
import type { ResponseStatus } from '../../../lib/graphql';

export interface ChallengeRulesQuery {
  challengeRules: {
    status: ResponseStatus;
    rewardMinCents: number | null;
    rewardMaxCents: number | null;
  } | null;
}

/** The server's configured reward bounds, which the create flow checks before sending. */
export const ChallengeRulesDocument: TypedDocumentNode<
  ChallengeRulesQuery,
  Record<string, never>
> = gql`
  query ChallengeRules {
    challengeRules {
      status {
        success
        identifier
        message
      }
      rewardMinCents
      rewardMaxCents
    }
  }
`;
