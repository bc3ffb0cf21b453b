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

/** Money the provider took back from a payment: one refund or one chargeback. */
export interface MoneyTakenBack {
  kind: 'refund' | 'chargeback';
  paymentId: string;
  amountCents: bigint;
}

export interface PaymentProvider {
  readonly name: string;
  createPayment(input: CreatePayment): Promise<ProviderPayment>;
  getPayment(id: string): Promise<ProviderPayment>;
  /**
   * Every refund (not failed or canceled) and chargeback (not reversed) created at or after
   * `since`, of every payment; at most `limit` of each kind, newest first.
   */
  moneyTakenBackSince(since: Date, limit: number): Promise<MoneyTakenBack[]>;
}
