/**
 * The card payment provider, as the top-up rules see it. Production talks to Mollie; the local
 * stack and the tests talk to the payment sandbox, which speaks the same API (ADR 0012).
 */
export type ProviderPaymentStatus =
  'open' | 'pending' | 'authorized' | 'paid' | 'failed' | 'canceled' | 'expired';

export interface ProviderPayment {
  id: string;
  status: ProviderPaymentStatus;
  amountCents: bigint;
  refundedCents: bigint;
  chargedBackCents: bigint;
  /** Where the user pays; only while the payment is open. */
  checkoutUrl: string | null;
  /** Mollie's mode: `live` money or a `test` payment (the sandbox's are always test). */
  mode: 'live' | 'test';
  /** The top-up it belongs to, as sent at creation. */
  topUpId: string | null;
}

export interface CreatePayment {
  amountCents: bigint;
  description: string;
  redirectUrl: string;
  webhookUrl: string;
  topUpId: string;
}

export interface PaymentProvider {
  readonly name: string;
  createPayment(input: CreatePayment): Promise<ProviderPayment>;
  getPayment(id: string): Promise<ProviderPayment>;
}
