import { gql, type TypedDocumentNode } from '@apollo/client';
import type { ResponseStatus } from '../../../lib/graphql';

export type EscrowParty = 'owner' | 'challenged';

/** Why a row is reported (wallet's EscrowMismatchReason). */
export type EscrowMismatchReason =
  'challenge_over' | 'challenge_missing' | 'past_expiry' | 'hold_missing';

/** A reward held in escrow for a challenge; amount in integer euro cents. */
export interface EscrowHold {
  challengeId: string;
  /** Whose stake: the owner's reward, or a duel's challenged user's stake. */
  party: EscrowParty;
  /** Known from the hold or the challenge's events; null when neither named it. */
  slug: string | null;
  challengeName: string | null;
  ownerId: string;
  /** The staker (or the challenge's owner when nothing is held), resolved by identity. */
  owner: { id: string; username: string };
  amount: number;
  createdAt: string;
  /** Where the wallet last saw the challenge; null when it never heard of it. */
  challengeStatus: string | null;
  /** The expiration date as the challenge's events last told it. */
  expiresAt: string | null;
  reason: EscrowMismatchReason;
  /** Who a capture would pay; null when only a release is possible. */
  captureTo: { id: string; username: string } | null;
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
    party
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
    expiresAt
    reason
    captureTo {
      id
      username
    }
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
