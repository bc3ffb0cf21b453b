import https from 'node:https';
import { createMollieClient, type Page, type Payment } from '@mollie/api-client';
import type { MoneyTakenBack, PaymentProvider, ProviderPayment } from './payment-provider.ts';

/** Mollie amounts are strings with two decimals; ours are integer cents. */
export function toMollieAmount(cents: bigint): { currency: 'EUR'; value: string } {
  const whole = cents / 100n;
  const rest = (cents % 100n).toString().padStart(2, '0');
  return { currency: 'EUR', value: `${whole}.${rest}` };
}

export function fromMollieAmount(amount: { currency: string; value: string } | undefined): bigint {
  if (!amount) return 0n;
  if (amount.currency !== 'EUR') throw new Error(`unexpected currency ${amount.currency}`);
  const match = /^(\d+)\.(\d{2})$/.exec(amount.value);
  if (!match) throw new Error(`unexpected amount ${amount.value}`);
  return BigInt(match[1]!) * 100n + BigInt(match[2]!);
}

function toProviderPayment(payment: Payment): ProviderPayment {
  const metadata = payment.metadata as { topUpId?: unknown } | null;
  return {
    id: payment.id,
    status: payment.status as ProviderPayment['status'],
    amountCents: fromMollieAmount(payment.amount),
    refundedCents: fromMollieAmount(payment.amountRefunded),
    chargedBackCents: fromMollieAmount(payment.amountChargedBack),
    checkoutUrl: payment.getCheckoutUrl(),
    mode: payment.mode === 'live' ? 'live' : 'test',
    topUpId: typeof metadata?.topUpId === 'string' ? metadata.topUpId : null,
  };
}

/**
 * The client pins Mollie's CA list on its own https.Agent and has no option for another one. To
 * trust the local sandbox's self-signed certificate, the Agent class is widened while the client
 * is made (synchronously, so nothing else can see it) and put back at once.
 */
function withExtraCa<T>(extraCaPem: string | undefined, make: () => T): T {
  if (!extraCaPem) return make();
  const { Agent } = https;
  class TrustingAgent extends Agent {
    constructor(options?: https.AgentOptions) {
      super({ ...options, ca: [options?.ca ?? [], extraCaPem!].flat() });
    }
  }
  Object.assign(https, { Agent: TrustingAgent });
  try {
    return make();
  } finally {
    Object.assign(https, { Agent });
  }
}

/** Mollie through its official client; `apiEndpoint` points it at the local sandbox. */
export function createMollieProvider(options: {
  apiKey: string;
  apiEndpoint: string;
  /** PEM of a CA to trust besides Mollie's (the local sandbox's certificate). */
  extraCaPem?: string;
}): PaymentProvider {
  const client = withExtraCa(options.extraCaPem, () =>
    createMollieClient({ apiKey: options.apiKey, apiEndpoint: options.apiEndpoint }),
  );
  return {
    name: 'mollie',
    async createPayment(input) {
      const payment = await client.payments.create({
        amount: toMollieAmount(input.amountCents),
        description: input.description,
        redirectUrl: input.redirectUrl,
        webhookUrl: input.webhookUrl,
        metadata: { topUpId: input.topUpId },
      });
      return toProviderPayment(payment);
    },
    async getPayment(id) {
      return toProviderPayment(await client.payments.get(id));
    },
    async moneyTakenBackSince(since, limit) {
      const refunds = await newestSince(client.refunds.page({ limit: 250 }), since, limit);
      const chargebacks = await newestSince(client.chargebacks.page({ limit: 250 }), since, limit);
      return [
        ...refunds
          .filter((refund) => refund.status !== 'failed' && refund.status !== 'canceled')
          .map((refund): MoneyTakenBack => ({
            kind: 'refund',
            paymentId: refund.paymentId,
            amountCents: fromMollieAmount(refund.amount),
          })),
        ...chargebacks
          .filter((chargeback) => !chargeback.reversedAt)
          .map((chargeback): MoneyTakenBack => ({
            kind: 'chargeback',
            paymentId: chargeback.paymentId,
            amountCents: fromMollieAmount(chargeback.amount),
          })),
      ];
    },
  };
}

/** Mollie's lists come newest first: the items of the pages from `first` on, until `since`. */
async function newestSince<T extends { createdAt: string }>(
  first: Promise<Page<T>>,
  since: Date,
  limit: number,
): Promise<T[]> {
  const found: T[] = [];
  let page: Page<T> | undefined = await first;
  while (page) {
    for (const item of page) {
      if (Date.parse(item.createdAt) < since.getTime() || found.length >= limit) return found;
      found.push(item);
    }
    page = page.nextPage ? await page.nextPage() : undefined;
  }
  return found;
}
