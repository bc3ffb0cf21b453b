import { gql, type TypedDocumentNode } from '@apollo/client';
import type { ResponseStatus } from '../../../lib/graphql';
import { PAYMENT_PROFILE_FIELDS, type PaymentProfile } from './ProfilePaymentInformation';

/**
 * Every profile field is required by the server but the BIC, which an IBAN of the EEA may go
 * without (null); replacing a saved IBAN also needs a proof.
 */
export type PaymentProfileInput = {
  [Field in Exclude<keyof PaymentProfile, 'paymentBic'>]: string;
} & {
  paymentBic: string | null;
  /** identity's reauthenticate proof (ADR 21). */
  reauthProof?: string;
};

export interface UpdateProfilePaymentInformationMutation {
  updateProfilePaymentInformation: {
    status: ResponseStatus;
    paymentProfile: PaymentProfile | null;
  } | null;
}

export interface UpdateProfilePaymentInformationMutationVariables {
  input: PaymentProfileInput;
}

/** Saves the payout details; the answer has them as stored (IBAN and BIC normalised). */
export const UpdateProfilePaymentInformationDocument: TypedDocumentNode<
  UpdateProfilePaymentInformationMutation,
  UpdateProfilePaymentInformationMutationVariables
> = gql`
  mutation UpdateProfilePaymentInformation($input: PaymentProfileInput!) {
    updateProfilePaymentInformation(input: $input) {
      status {
        success
        identifier
        message
      }
      paymentProfile {
        ...PaymentProfileFields
      }
    }
  }
  ${PAYMENT_PROFILE_FIELDS}
`;
