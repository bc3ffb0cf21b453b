import type { PaymentProfile } from './graphql/ProfilePaymentInformation';

/** Every field the server needs before it accepts a payout request (all of them). */
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

/** The fields still empty; none means payouts can be requested. */
export function missingPaymentFields(profile: PaymentProfile): PaymentProfileKey[] {
  return PAYMENT_PROFILE_KEYS.filter((key) => !profile[key]?.trim());
}
