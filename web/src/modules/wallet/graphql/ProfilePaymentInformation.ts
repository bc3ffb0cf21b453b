import { gql, type TypedDocumentNode } from '@apollo/client';
import type { ResponseStatus } from '../../../lib/graphql';

/** The bank account and address payouts go to (any field may still be empty). */
export interface PaymentProfile {
  paymentName: string | null;
  paymentAccountNumber: string | null;
  paymentBic: string | null;
  paymentAddress: string | null;
  paymentPostalCode: string | null;
  paymentCity: string | null;
  paymentCountryCode: string | null;
  phoneNumber: string | null;
}

export interface ProfilePaymentInformationQuery {
  getProfilePaymentInformation: {
    status: ResponseStatus;
    paymentProfile: PaymentProfile | null;
  } | null;
}

export type ProfilePaymentInformationQueryVariables = Record<string, never>;

export const PAYMENT_PROFILE_FIELDS = gql`
  fragment PaymentProfileFields on PaymentProfile {
    paymentName
    paymentAccountNumber
    paymentBic
    paymentAddress
    paymentPostalCode
    paymentCity
    paymentCountryCode
    phoneNumber
  }
`;

/** The logged-in user's payout details. */
export const ProfilePaymentInformationDocument: TypedDocumentNode<
  ProfilePaymentInformationQuery,
  ProfilePaymentInformationQueryVariables
> = gql`
  query ProfilePaymentInformation {
    getProfilePaymentInformation {
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
