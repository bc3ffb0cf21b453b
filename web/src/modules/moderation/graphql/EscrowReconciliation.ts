import { gql, type TypedDocumentNode } from '@apollo/client';
import type { ResponseStatus } from '../../../lib/graphql';

/** A reward held in escrow for a challenge; amount in integer euro cents. */
export interface EscrowHold {
  challengeId: string;
  /** Known from the hold or the challenge's events; null when neither named it. */
  slug: string | null;
  challengeName: string | null;
  ownerId: string;
  /** The challenge owner, resolved by identity through the gateway. */
  owner: { id: string; username: string };
  amount: number;
  createdAt: string;
  /** Where the wallet last saw the challenge; null when it never heard of it. */
  challengeStatus: string | null;
}

export interface EscrowReconciliationQuery {
  escrowReconciliation: {
    status: ResponseStatus;
    holdsWithoutLiveChallenge: EscrowHold[];
    liveChallengesWithoutHold: EscrowHold[];
    checkedAt: string | null;
  } | null;
}

export type EscrowReconciliationQueryVariables = Record<string, never>;

/** The fields of a hold, spread into both lists. */
export const ESCROW_HOLD_FIELDS = gql`
  fragment EscrowHoldFields on EscrowHold {
    challengeId
    slug
    challengeName
    ownerId
    owner {
      id
      username
    }
    amount
    createdAt
    challengeStatus
  }
`;

/** Moderators and admins: escrow holds without a live challenge, and the other way round. */
export const EscrowReconciliationDocument: TypedDocumentNode<
  EscrowReconciliationQuery,
  EscrowReconciliationQueryVariables
> = gql`
  query EscrowReconciliation {
    escrowReconciliation {
      status {
        success
        identifier
        message
      }
      holdsWithoutLiveChallenge {
        ...EscrowHoldFields
      }
      liveChallengesWithoutHold {
        ...EscrowHoldFields
      }
      checkedAt
    }
  }
  ${ESCROW_HOLD_FIELDS}
`;
