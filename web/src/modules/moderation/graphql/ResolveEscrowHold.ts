import { gql, type TypedDocumentNode } from '@apollo/client';
import type { ResponseStatus } from '../../../lib/graphql';
import type { EscrowParty } from './EscrowReconciliation';

export type EscrowResolution = 'release' | 'capture';

export interface ResolveEscrowHoldMutation {
  resolveEscrowHold: {
    status: ResponseStatus;
    hold: {
      challengeId: string;
      party: EscrowParty;
      amount: number;
      status: string;
      payee: { id: string; username: string };
    } | null;
  } | null;
}

export interface ResolveEscrowHoldMutationVariables {
  input: {
    challengeId: string;
    party: EscrowParty;
    outcome: EscrowResolution;
    reason: string;
  };
}

/**
 * Staff settle a held stake the escrow check reports: back to whoever staked it, or to the
 * challenge's other party; once, with a reason for the audit log (docs/adr/0072).
 */
export const ResolveEscrowHoldDocument: TypedDocumentNode<
  ResolveEscrowHoldMutation,
  ResolveEscrowHoldMutationVariables
> = gql`
  mutation ResolveEscrowHold($input: ResolveEscrowHoldInput!) {
    resolveEscrowHold(input: $input) {
      status {
        success
        identifier
        message
      }
      hold {
        challengeId
        party
        amount
        status
        payee {
          id
          username
        }
      }
    }
  }
`;
