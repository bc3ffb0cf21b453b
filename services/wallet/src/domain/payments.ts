import { enqueueEvents, newEvent } from '@challenge/events';
import { AppError, type Logger } from '@challenge/kit';
import { z } from 'zod';
import type { Limits } from '../config.ts';
import { transactionRunner, type Database, type Transaction } from '../data/db.ts';
import { userBalances } from '../data/ledger.ts';
import {
  findTopUp,
  findTopUpByRequestKey,
  insertTopUp,
  lockTopUpByProviderId,
  lockWallet,
  openTopUpsBetween,
  recordedMoneyBack,
  topUpExistsForProviderId,
  updateTopUp,
  type TopUpRow,
} from '../data/payments.ts';
import type { PaymentProvider, ProviderPayment } from '../providers/payment-provider.ts';
import { toInt } from './history.ts';
import { retryOnConflict, transferIn } from './ledger.ts';
import { checkMonthlyLimit } from './limits.ts';

/**
 * Card top-ups (ADR 0012). The money moves only when the provider says the payment is paid, and
 * only from what the provider says when asked, never from what a webhook body claims: a webhook
 * carries just an id, as Mollie's do, so a forged one can at most make us look.
 */
export interface TopUpDeps {
  db: Database;
  provider: PaymentProvider;
  limits: Limits;
  publicOrigin: string;
  webhookUrl: () => string;
  /** Production: only a payment in Mollie's live mode is credited (ADR 0017). */
  requireLiveMode: boolean;
  logger: Logger;
}

/** A client's idempotency key: the same key again answers the first result and moves nothing. */
export const idempotencyKey = z.string().trim().min(8).max(100).nullish();

export const initializePaymentInput = z.object({
  amount: z.number().int(),
  originUrl: z.string(),
  idempotencyKey,
});

const hasControlCharacters = (value: string) =>
  [...value].some((char) => char.charCodeAt(0) < 0x20 || char.charCodeAt(0) === 0x7f);

/** A path of this site (no other origin, no protocol-relative //host), normalised; else invalid_origin_url. */
export function sitePath(originUrl: string, publicOrigin: string): string {
  const origin = new URL(publicOrigin).origin;
  if (!originUrl.startsWith('/') || originUrl.startsWith('//') || originUrl.includes('\\')) {
    throw new AppError('invalid_origin_url');
  }
  if (originUrl.length > 2000 || hasControlCharacters(originUrl)) {
    throw new AppError('invalid_origin_url');
  }
  const url = new URL(originUrl, origin);
  if (url.origin !== origin) throw new AppError('invalid_origin_url');
  return `${url.pathname}${url.search}${url.hash}`;
}

export async function initializePayment(
  deps: TopUpDeps,
  userId: string,
  input: z.infer<typeof initializePaymentInput>,
): Promise<{ payment_url: string; paymentId: string }> {
  const originUrl = sitePath(input.originUrl, deps.publicOrigin);
  const amountCents = BigInt(input.amount);
  if (amountCents < BigInt(deps.limits.minimumTopUpCents)) {
    throw new AppError(
      'invalid_input',
      `The minimum top-up is ${formatEuro(deps.limits.minimumTopUpCents)}.`,
    );
  }
  const requestKey = input.idempotencyKey ? `${userId}:${input.idempotencyKey}` : null;
  const { topUp, repeated } = await retryOnConflict(() =>
    transactionRunner(deps.db)(async (tx) => {
      if (!(await lockWallet(tx, userId))) throw new AppError('wallet_not_found');
      const earlier = requestKey ? await findTopUpByRequestKey(tx, requestKey) : null;
      if (earlier) return { topUp: earlier, repeated: true };
      await checkMonthlyLimit(tx, deps.limits, 'deposit', userId, amountCents);
      const created = await insertTopUp(tx, {
        userId,
        amountCents,
        provider: deps.provider.name,
        originUrl,
        requestKey,
      });
      return { topUp: created, repeated: false };
    }),
  );
  if (repeated) {
    if (topUp.amountCents !== amountCents || topUp.originUrl !== originUrl) {
      throw new AppError('invalid_input', 'This idempotency key was used for another top-up.');
    }
    if (!topUp.checkoutUrl) {
      throw new AppError('generic_error', 'The payment is still being prepared. Try again.');
    }
    return { payment_url: topUp.checkoutUrl, paymentId: topUp.id };
  }
  let payment: ProviderPayment;
  try {
    const redirect = new URL('/wallet/payment-success', deps.publicOrigin);
    redirect.searchParams.set('payment', topUp.id);
    payment = await deps.provider.createPayment({
      amountCents,
      description: `Wallet top-up ${topUp.id.slice(0, 8)}`,
      redirectUrl: redirect.href,
      webhookUrl: deps.webhookUrl(),
      topUpId: topUp.id,
    });
  } catch (error) {
    deps.logger.error({ err: error, topUpId: topUp.id }, 'the payment provider refused a payment');
    // Failed, so that it no longer counts towards the monthly limit.
    await updateTopUp(deps.db, topUp.id, { status: 'failed' });
    throw new AppError('generic_error', 'The payment link could not be created. Try again later.');
  }
  await updateTopUp(deps.db, topUp.id, {
    providerPaymentId: payment.id,
    checkoutUrl: payment.checkoutUrl,
  });
  if (!payment.checkoutUrl) throw new AppError('generic_error', 'The payment has no checkout.');
  return { payment_url: payment.checkoutUrl, paymentId: topUp.id };
}

const formatEuro = (cents: number) => `€${(cents / 100).toFixed(2)}`;

/**
 * A webhook said the payment changed: ask the provider, then apply what it says once. An id we
 * never stored is ignored before the provider is asked (a flood of made-up ids costs no provider
 * calls) and answered as handled, so that nobody learns which ids exist.
 */
export async function applyProviderPayment(deps: TopUpDeps, providerPaymentId: string) {
  if (!(await topUpExistsForProviderId(deps.db, providerPaymentId))) {
    deps.logger.warn({ providerPaymentId }, 'a webhook for a payment we did not start');
    return null;
  }
  const payment = await deps.provider.getPayment(providerPaymentId);
  return retryOnConflict(() =>
    transactionRunner(deps.db)(async (tx) => {
      const topUp = await lockTopUpByProviderId(tx, payment.id);
      if (!topUp) {
        deps.logger.warn({ providerPaymentId }, 'a webhook for a payment we did not start');
        return null;
      }
      if (payment.amountCents !== topUp.amountCents) {
        deps.logger.error(
          { topUpId: topUp.id },
          'the provider reports another amount: not credited',
        );
        return topUp;
      }
      let current = await applyStatus(tx, topUp, payment, deps);
      current = await recover(tx, current, 'refund', payment.refundedCents);
      current = await recover(tx, current, 'chargeback', payment.chargedBackCents);
      return current;
    }),
  );
}

async function applyStatus(
  tx: Transaction,
  topUp: TopUpRow,
  payment: ProviderPayment,
  deps: Pick<TopUpDeps, 'requireLiveMode' | 'logger'>,
) {
  if (topUp.status !== 'open') return topUp; // paid, failed... are final for us
  if (payment.status === 'paid' && deps.requireLiveMode && payment.mode !== 'live') {
    // A test-mode payment is no money: with a test key in production nothing may be credited.
    deps.logger.error({ topUpId: topUp.id }, 'a payment not in live mode: not credited');
    return topUp;
  }
  if (payment.status === 'paid') {
    await transferIn(tx, {
      idempotencyKey: `top-up:${topUp.id}`,
      kind: 'top_up',
      from: { platform: 'provider_clearing' },
      to: { user: topUp.userId, kind: 'user_available' },
      amountCents: topUp.amountCents,
      description: payment.id,
    });
    await enqueueEvents(tx, [
      newEvent('TopUpCompleted', {
        aggregateId: topUp.userId,
        actorId: topUp.userId,
        data: { paymentId: topUp.id, userId: topUp.userId, amountCents: Number(topUp.amountCents) },
      }),
    ]);
    return updateTopUp(tx, topUp.id, { status: 'paid', paidAt: new Date() });
  }
  if (
    payment.status === 'failed' ||
    payment.status === 'canceled' ||
    payment.status === 'expired'
  ) {
    return updateTopUp(tx, topUp.id, { status: payment.status });
  }
  return topUp; // open, pending, authorized: nothing yet
}

/**
 * A refund or chargeback takes the money back from the user's available balance. What the user
 * already spent cannot be taken (balances never go negative): it is recorded as unrecovered for
 * staff to follow up. Keyed by the provider's running total, so each new amount moves once.
 */
async function recover(
  tx: Transaction,
  topUp: TopUpRow,
  kind: 'refund' | 'chargeback',
  providerTotal: bigint,
) {
  const recorded = kind === 'refund' ? topUp.refundedCents : topUp.chargedBackCents;
  if (providerTotal <= recorded || topUp.status !== 'paid') return topUp;
  const owed = providerTotal - recorded;
  const { availableCents } = await userBalances(tx, topUp.userId);
  const taken = owed < availableCents ? owed : availableCents;
  if (taken > 0n) {
    await transferIn(tx, {
      idempotencyKey: `${kind}:${topUp.id}:${providerTotal}`,
      kind,
      from: { user: topUp.userId, kind: 'user_available' },
      to: { platform: 'provider_clearing' },
      amountCents: taken,
      description: topUp.providerPaymentId,
    });
  }
  return updateTopUp(tx, topUp.id, {
    [kind === 'refund' ? 'refundedCents' : 'chargedBackCents']: providerTotal,
    unrecoveredCents: topUp.unrecoveredCents + (owed - taken),
  });
}

/** How far back the reconciliation asks the provider about top-ups still open. */
const OPEN_TOP_UP_HORIZON_MS = 7 * 24 * 60 * 60_000;

/**
 * The webhook is only the provider's hint (applyProviderPayment asks the provider anyway); when
 * every attempt of it was lost (the platform down longer than the provider retried, a wrong
 * webhook URL), a paid top-up would stay open and uncredited for ever. The reconciliation asks
 * the provider about every top-up still open `graceMs` after it started (up to a week back, 100
 * a pass) and applies what it says, once, exactly as a webhook would (the top-up's row lock and
 * the transfer's idempotency key make a webhook arriving meanwhile harmless). Returns how many
 * it asked about.
 */
export async function recheckOpenTopUps(deps: TopUpDeps, graceMs: number, now = new Date()) {
  const ids = await openTopUpsBetween(
    deps.db,
    new Date(now.getTime() - OPEN_TOP_UP_HORIZON_MS),
    new Date(now.getTime() - graceMs),
    100,
  );
  for (const id of ids) {
    try {
      await applyProviderPayment(deps, id);
    } catch (error) {
      deps.logger.warn(
        { err: error, providerPaymentId: id },
        'could not ask the provider about an open top-up',
      );
    }
  }
  return ids.length;
}

/** How far back each reconciliation pass reads the provider's refunds and chargebacks. */
const MONEY_BACK_HORIZON_MS = 7 * 24 * 60 * 60_000;
/** At most this many of each kind a pass (newest first); the next pass reads them again. */
const MONEY_BACK_LIMIT = 1_000;

/**
 * A refund or a chargeback reaches wallet by the payment's webhook too. When every attempt was
 * lost, the user would keep money the provider took back from the platform. Each reconciliation
 * pass reads the provider's refunds and chargebacks of the last week and, for a paid top-up whose
 * recorded totals are below what that week alone lists, applies the payment as a webhook would
 * (the top-up's row lock and the running totals make it once). Answers how many it applied.
 */
export async function recheckMoneyTakenBack(deps: TopUpDeps, now = new Date()) {
  const taken = await deps.provider.moneyTakenBackSince(
    new Date(now.getTime() - MONEY_BACK_HORIZON_MS),
    MONEY_BACK_LIMIT,
  );
  const listed = new Map<string, { refund: bigint; chargeback: bigint }>();
  for (const item of taken) {
    const sums = listed.get(item.paymentId) ?? { refund: 0n, chargeback: 0n };
    sums[item.kind] += item.amountCents;
    listed.set(item.paymentId, sums);
  }
  const recorded = await recordedMoneyBack(deps.db, [...listed.keys()]);
  let applied = 0;
  for (const [paymentId, sums] of listed) {
    const ours = recorded.get(paymentId);
    if (!ours) continue; // not a top-up of ours, or not paid
    if (ours.refundedCents >= sums.refund && ours.chargedBackCents >= sums.chargeback) continue;
    try {
      await applyProviderPayment(deps, paymentId);
      applied++;
    } catch (error) {
      deps.logger.warn(
        { err: error, providerPaymentId: paymentId },
        'could not apply money the provider took back',
      );
    }
  }
  return applied;
}

/** A top-up as its owner sees it; someone else's is not found. */
export async function getTopUp(db: Database, userId: string, id: string) {
  const topUp = z.uuid().safeParse(id).success ? await findTopUp(db, id) : null;
  if (!topUp || topUp.userId !== userId) throw new AppError('not_found');
  return {
    id: topUp.id,
    amount: toInt(topUp.amountCents),
    paymentStatus: topUp.status,
    originUrl: topUp.originUrl,
    createdAt: topUp.createdAt.toISOString(),
    paidAt: topUp.paidAt?.toISOString() ?? null,
  };
}
