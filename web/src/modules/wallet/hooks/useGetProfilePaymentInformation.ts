import { useQuery } from '@apollo/client/react';
import type { ResponseStatus } from '../../../lib/graphql';
import {
  ProfilePaymentInformationDocument,
  type PaymentProfile,
} from '../graphql/ProfilePaymentInformation';

export interface PaymentProfileState {
  /** The stored details; every field null when nothing was saved yet. */
  paymentProfile: PaymentProfile | null;
  failure: ResponseStatus | null;
  requestFailed: boolean;
  loading: boolean;
  refetch: () => void;
}

export const EMPTY_PAYMENT_PROFILE: PaymentProfile = {
  paymentName: null,
  paymentAccountNumber: null,
  paymentBic: null,
  paymentAddress: null,
  paymentPostalCode: null,
  paymentCity: null,
  paymentCountryCode: null,
  phoneNumber: null,
};

/** The logged-in user's payout details (bank account, address, phone number). */
export function useGetProfilePaymentInformation(): PaymentProfileState {
  const { data, loading, error, refetch } = useQuery(ProfilePaymentInformationDocument, {
    fetchPolicy: 'network-only',
  });
  const result = data?.getProfilePaymentInformation;
  const paymentProfile = result?.status.success
    ? (result.paymentProfile ?? EMPTY_PAYMENT_PROFILE)
    : null;
  return {
    paymentProfile,
    failure: result && !result.status.success ? result.status : null,
    requestFailed: Boolean(error) && !paymentProfile,
    loading: loading && !paymentProfile,
    refetch: () => void refetch().catch(() => undefined),
  };
}
