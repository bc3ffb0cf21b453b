import { gql, type TypedDocumentNode } from '@apollo/client';
import type { ResponseStatus } from '../../../lib/graphql';

export interface InitializePaymentMutation {
  InitializePayment: {
    status: ResponseStatus;
    payment_url: string | null;
    paymentId: string | null;
  } | null;
}

export interface InitializePaymentMutationVariables {
  input: {
    /** Integer euro cents. */
    amount: number;
    /** A path of this site to come back to after paying. */
    originUrl: string;
    /** 8-100 characters, one per form submission: a repeat answers the first result. */
    idempotencyKey?: string | null;
  };
}

/** Starts a card top-up; the answer's payment_url is the provider's checkout page. */
export const InitializePaymentDocument: TypedDocumentNode<
  InitializePaymentMutation,
  InitializePaymentMutationVariables
> = gql`
  mutation InitializePayment($input: InitializePaymentInput!) {
    InitializePayment(input: $input) {
      status {
        success
        identifier
        message
      }
      payment_url
      paymentId
    }
  }
`;
