import { bicRequiredFor } from '../../lib/iban';
import type { PaymentProfile } from './graphql/ProfilePaymentInformation';

/** Every field of the payout details; all are needed but the BIC for an IBAN of the EEA. */
export const PAYMENT_PROFILE_KEYS = [
  'paymentName',
  'paymentAccountNumber',
  'paymentBic',
  'paymentAddress',
  'paymentPostalCode',
  'paymentCity',
  'paymentCountryCode',
  'phoneNumber',
] as const satisfies ReadonlyArray<keyof PaymentProfile>;

export type PaymentProfileKey = (typeof PAYMENT_PROFILE_KEYS)[number];

/** Whether the details need this field: all do, the BIC only for an IBAN from outside the EEA. */
export function isRequiredPaymentField(key: PaymentProfileKey, iban: string | null): boolean {
  return key !== 'paymentBic' || bicRequiredFor(iban ?? '');
}

/** The fields still empty; none means payouts can be requested. */
export function missingPaymentFields(profile: PaymentProfile): PaymentProfileKey[] {
  return PAYMENT_PROFILE_KEYS.filter(
    (key) =>
      !profile[key]?.trim() && isRequiredPaymentField(key, profile.paymentAccountNumber ?? null),
  );
}
