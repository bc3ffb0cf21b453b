import { randomBytes } from 'node:crypto';
import { enqueueEvents, handleOnce, newEvent, type DomainEvent } from '@challenge/events';
import {
  AppError,
  failStatus,
  pageRequestSchema,
  pageWindow,
  paginationOf,
  type AuthUser,
  type TokenVerifier,
} from '@challenge/kit';
import { z } from 'zod';
import type { Limits, WalletConfig } from '../config.ts';
import { transactionRunner, type Database } from '../data/db.ts';
import { lockWallet } from '../data/payments.ts';
import {
  claimPayoutsForExport,
  deletePaymentProfile,
  heldForReviewTotals,
  findPaymentProfile,
  findPayoutByRequestKey,
  insertPayout,
  listPayouts,
  lockPaymentProfile,
  lockPayout,
  markPayoutCancelled,
  markPayoutReleased,
  markPayoutDone,
  openPayoutCents,
  savePaymentProfile,
  type PaymentProfileRow,
  type PayoutRow,
} from '../data/payouts.ts';
import {
  ibanEnding,
  isEuropeanCountry,
  isRecentIbanChange,
  validateBic,
  EEA_COUNTRIES,
  validateIban,
} from './bank-account.ts';
import { toInt } from './history.ts';
import { retryOnConflict, transferIn } from './ledger.ts';
import { checkMonthlyLimit } from './limits.ts';
import { idempotencyKey } from './payments.ts';
import { CONSUMER } from './wallets.ts';
import { buildCreditTransferFile, toSepaText, type PainVersion } from './sepa/index.ts';

/**
 * Payouts: the user asks for an amount, which is frozen at once; staff send the bank transfers
 * (a SEPA file) and then mark each payout done, which moves the frozen money out of the wallet.
 * States (ADR 0016): open -> exported (in a SEPA file) -> done; open or exported -> cancelled
 * (the money back to available). Each move locks the payout row first, so one of two racing
 * moves wins and the other finds the payout no longer where it was.
 */

const text = (max: number) => z.string().trim().min(1).max(max);

export const paymentProfileInput = z.object({
  paymentName: text(70),
  paymentAccountNumber: text(42),
  /** Optional for an IBAN of the EEA (an empty one is an absent one), required otherwise. */
  paymentBic: z.string().trim().max(11).nullish(),
  paymentAddress: text(70),
  paymentPostalCode: text(16),
  paymentCity: text(35),
  paymentCountryCode: text(2),
  phoneNumber: text(20),
  /** identity's reauthenticate proof (purpose payment_profile): needed to replace an IBAN. */
  reauthProof: z.string().min(1).max(4096).nullish(),
});

/** Digits with an optional leading +, spaces, dots, dashes and brackets: 8 to 15 digits (E.164). */
const PHONE = /^\+?[0-9 ().-]{8,20}$/;

/** Checks and normalises the details a payout needs; the first problem is the error. */
export function validatePaymentProfile(
  input: Omit<z.infer<typeof paymentProfileInput>, 'reauthProof'>,
): PaymentProfileRow {
  const iban = validateIban(input.paymentAccountNumber);
  const ibanCountry = iban.slice(0, 2);
  const bicInput = input.paymentBic?.trim() || null;
  if (bicInput === null && !EEA_COUNTRIES.has(ibanCountry)) {
    throw new AppError(
      'invalid_input',
      `A BIC is needed for an IBAN from ${ibanCountry}: only IBANs from the EEA go without one.`,
    );
  }
  const bic = bicInput === null ? null : validateBic(bicInput, ibanCountry);
  const countryCode = input.paymentCountryCode.toUpperCase();
  if (!isEuropeanCountry(countryCode)) {
    throw new AppError(
      'invalid_input',
      'The country must be one of the European countries listed.',
    );
  }
  const digits = input.phoneNumber.replace(/\D/g, '');
  if (!PHONE.test(input.phoneNumber) || digits.length < 8 || digits.length > 15) {
    throw new AppError('invalid_phone_number');
  }
  // The name goes into the bank file: it must keep some SEPA characters.
  if (!toSepaText(input.paymentName, 70)) {
    throw new AppError('invalid_input', 'The account holder name needs letters a bank can read.');
  }
  return {
    name: input.paymentName,
    iban,
    bic,
    address: input.paymentAddress,
    postalCode: input.paymentPostalCode,
    city: input.paymentCity,
    countryCode,
    phoneNumber: input.phoneNumber,
  };
}

export function profileView(profile: PaymentProfileRow | null) {
  return {
    paymentName: profile?.name ?? null,
    paymentAccountNumber: profile?.iban ?? null,
    paymentBic: profile?.bic ?? null,
    paymentAddress: profile?.address ?? null,
    paymentPostalCode: profile?.postalCode ?? null,
    paymentCity: profile?.city ?? null,
    paymentCountryCode: profile?.countryCode ?? null,
    phoneNumber: profile?.phoneNumber ?? null,
  };
}

export async function getPaymentProfile(db: Database, userId: string) {
  return profileView(await findPaymentProfile(db, userId));
}

/**
 * Saves the payout details. Replacing an IBAN by another needs a re-authentication proof from
 * identity for this very session (password or fresh e-mailed code), announces the change
 * (PaymentAccountChanged: notification mails a notice) and holds payouts for 24 hours (ADR 21).
 */
export async function updatePaymentProfile(
  deps: { db: Database; verifier?: TokenVerifier },
  viewer: Pick<AuthUser, 'id'> & Partial<Pick<AuthUser, 'tokenId'>>,
  input: z.infer<typeof paymentProfileInput>,
  now = new Date(),
) {
  const profile = validatePaymentProfile(input);
  const saved = await transactionRunner(deps.db)(async (tx) => {
    const current = await lockPaymentProfile(tx, viewer.id);
    const replacesIban = current !== null && current.iban !== profile.iban;
    if (!replacesIban) return savePaymentProfile(tx, viewer.id, profile);
    await assertReauthenticated(deps.verifier, viewer, input.reauthProof);
    const row = await savePaymentProfile(tx, viewer.id, { ...profile, ibanChangedAt: now });
    await enqueueEvents(tx, [
      newEvent('PaymentAccountChanged', {
        aggregateId: viewer.id,
        actorId: viewer.id,
        data: {
          userId: viewer.id,
          ibanEnding: ibanEnding(profile.iban),
          previousIbanEnding: ibanEnding(current.iban),
          changedAt: now.toISOString(),
        },
      }),
    ]);
    return row;
  });
  return profileView(saved);
}

/** The proof must be identity's, for this purpose, this user and this session. */
async function assertReauthenticated(
  verifier: TokenVerifier | undefined,
  viewer: Pick<AuthUser, 'id'> & Partial<Pick<AuthUser, 'tokenId'>>,
  proof: string | null | undefined,
): Promise<void> {
  const refused = new AppError(
    'invalid_credentials',
    'Confirm the new bank account with your password or a code sent to your e-mail.',
  );
  if (!proof || !verifier || !viewer.tokenId) throw refused;
  const claims = await verifier.verifyReauth(proof, 'payment_profile').catch(() => {
    throw refused;
  });
  if (claims.userId !== viewer.id || claims.sessionId !== viewer.tokenId) throw refused;
}

export const payoutRequestInput = z.object({ amount: z.number().int(), idempotencyKey });

export function payoutView(payout: PayoutRow) {
  return {
    id: payout.id,
    userId: payout.userId,
    name: payout.name,
    amount: toInt(payout.amountCents),
    accountNumber: payout.iban,
    bic: payout.bic,
    address: payout.address,
    postalCode: payout.postalCode,
    city: payout.city,
    countryCode: payout.countryCode,
    status: payout.status,
    createdAt: payout.createdAt.toISOString(),
    completedAt: payout.completedAt?.toISOString() ?? null,
    exportedAt: payout.exportedAt?.toISOString() ?? null,
    cancelledAt: payout.cancelledAt?.toISOString() ?? null,
    cancelReason: payout.cancelReason,
    heldForReview: payout.heldForReview && payout.releasedAt === null,
    ibanChangedAt: payout.heldForReview ? (payout.ibanChangedAt?.toISOString() ?? null) : null,
    releasedAt: payout.releasedAt?.toISOString() ?? null,
  };
}

/** Freezes the amount for a payout to the user's saved bank account. */
export async function requestPayout(
  db: Database,
  limits: Limits,
  userId: string,
  input: z.infer<typeof payoutRequestInput>,
  now = new Date(),
) {
  const amountCents = BigInt(input.amount);
  if (amountCents < BigInt(limits.minimumPayoutCents)) {
    throw new AppError('payout_request_amount_too_low');
  }
  return retryOnConflict(() =>
    transactionRunner(db)(async (tx) => {
      if (!(await lockWallet(tx, userId))) throw new AppError('wallet_not_found');
      const requestKey = input.idempotencyKey ? `${userId}:${input.idempotencyKey}` : null;
      const earlier = requestKey ? await findPayoutByRequestKey(tx, requestKey) : null;
      if (earlier) {
        if (earlier.amountCents !== amountCents) {
          throw new AppError('invalid_input', 'This idempotency key was used for another payout.');
        }
        return payoutView(earlier);
      }
      const profile = await findPaymentProfile(tx, userId);
      if (!profile) throw new AppError('payout_request_details_missing');
      await checkMonthlyLimit(tx, limits, 'withdrawal', userId, amountCents);
      const heldForReview = isRecentIbanChange(profile.ibanChangedAt, now);
      const payout = await insertPayout(tx, {
        ...profile,
        userId,
        amountCents,
        requestKey,
        heldForReview,
        ibanChangedAt: heldForReview ? profile.ibanChangedAt : null,
      });
      await transferIn(tx, {
        idempotencyKey: `payout-request:${payout.id}`,
        kind: 'payout_request',
        from: { user: userId, kind: 'user_available' },
        to: { user: userId, kind: 'user_frozen' },
        amountCents,
      });
      await enqueueEvents(tx, [
        newEvent('PayoutRequested', {
          aggregateId: userId,
          actorId: userId,
          data: { payoutId: payout.id, userId, amountCents: Number(amountCents) },
        }),
      ]);
      return payoutView(payout);
    }),
  );
}

/**
 * Staff never act on their own payout request (the staff conflict rule, docs/adr/0070): a held
 * payout after their own IBAN change, its completion or its cancellation is a colleague's to
 * check. Read under the payout's row lock, with the request it guards.
 */
function refuseOwnPayout(staffId: string, payout: { userId: string }) {
  if (payout.userId === staffId) {
    throw new AppError('access_denied', 'You cannot act on your own payout request.');
  }
}

/** Staff confirm the transfer went out: the frozen money leaves the wallet, once. */
export async function completePayout(db: Database, staffId: string, payoutId: string) {
  if (!z.uuid().safeParse(payoutId).success) throw new AppError('not_found');
  return retryOnConflict(() =>
    transactionRunner(db)(async (tx) => {
      const payout = await lockPayout(tx, payoutId);
      if (!payout) throw new AppError('not_found', 'This payout request does not exist.');
      refuseOwnPayout(staffId, payout);
      if (payout.status === 'open') {
        // Only a payout in a SEPA file can have been paid by the bank.
        throw new AppError(
          'invalid_status_change',
          'Export this payout request into a SEPA file before completing it.',
        );
      }
      if (payout.status !== 'exported') throw new AppError('payout_request_no_longer_open');
      if (payout.heldForReview && !payout.releasedAt) {
        throw new AppError(
          'payout_request_failed',
          'This payout follows a change of bank account: release it after checking first.',
        );
      }
      // Done first, so that the balance report of the transfer no longer counts it as open.
      const done = await markPayoutDone(tx, payoutId, staffId);
      await transferIn(tx, {
        idempotencyKey: `payout-complete:${payoutId}`,
        kind: 'payout_complete',
        from: { user: payout.userId, kind: 'user_frozen' },
        to: { platform: 'payout_clearing' },
        amountCents: payout.amountCents,
        description: payout.iban,
      });
      await enqueueEvents(tx, [
        newEvent('PayoutCompleted', {
          aggregateId: payout.userId,
          actorId: staffId,
          data: { payoutId, userId: payout.userId, amountCents: Number(payout.amountCents) },
        }),
      ]);
      return payoutView(done);
    }),
  );
}

export const cancelPayoutInput = z.object({
  id: z.string(),
  reason: z.string().trim().min(1, 'A reason is required.').max(800),
});

/**
 * Staff cancel a payout that was not paid (the bank returned it, the details were wrong): the
 * frozen money goes back to the user's available balance, once, as a `payout_cancel` transfer.
 */
export async function cancelPayout(
  db: Database,
  staffId: string,
  input: z.infer<typeof cancelPayoutInput>,
) {
  if (!z.uuid().safeParse(input.id).success) throw new AppError('not_found');
  return retryOnConflict(() =>
    transactionRunner(db)(async (tx) => {
      const payout = await lockPayout(tx, input.id);
      if (!payout) throw new AppError('not_found', 'This payout request does not exist.');
      refuseOwnPayout(staffId, payout);
      if (payout.status !== 'open' && payout.status !== 'exported') {
        throw new AppError('payout_request_no_longer_open');
      }
      // Cancelled first, so that the balance report of the transfer no longer counts it as open.
      const cancelled = await markPayoutCancelled(tx, input.id, staffId, input.reason);
      await transferIn(tx, {
        idempotencyKey: `payout-cancel:${input.id}`,
        kind: 'payout_cancel',
        from: { user: payout.userId, kind: 'user_frozen' },
        to: { user: payout.userId, kind: 'user_available' },
        amountCents: payout.amountCents,
        // The IBAN, as on the completion; the reason is staff's record, not the user's history.
        description: payout.iban,
      });
      // For moderation's audit log (docs/adr/0083), committed with the cancellation.
      await enqueueEvents(tx, [
        newEvent('PayoutCancelled', {
          aggregateId: payout.userId,
          actorId: staffId,
          data: {
            payoutId: payout.id,
            userId: payout.userId,
            amountCents: Number(payout.amountCents),
            reason: input.reason,
          },
        }),
      ]);
      return payoutView(cancelled);
    }),
  );
}

/**
 * Staff checked a payout held after an IBAN change (with the user, through a known channel):
 * it may be exported and completed from now on.
 */
export async function releasePayout(db: Database, staffId: string, payoutId: string) {
  if (!z.uuid().safeParse(payoutId).success) throw new AppError('not_found');
  return transactionRunner(db)(async (tx) => {
    const payout = await lockPayout(tx, payoutId);
    if (!payout) throw new AppError('not_found', 'This payout request does not exist.');
    refuseOwnPayout(staffId, payout);
    if (payout.status !== 'open') throw new AppError('payout_request_no_longer_open');
    if (!payout.heldForReview || payout.releasedAt) throw new AppError('redundant_mutation');
    const released = await markPayoutReleased(tx, payoutId, staffId);
    // For moderation's audit log (docs/adr/0083), committed with the release.
    await enqueueEvents(tx, [
      newEvent('PayoutReleased', {
        aggregateId: payout.userId,
        actorId: staffId,
        data: { payoutId, userId: payout.userId, amountCents: Number(payout.amountCents) },
      }),
    ]);
    return payoutView(released);
  });
}

export const payoutListInput = pageRequestSchema.extend({
  status: z.enum(['open', 'exported', 'done', 'cancelled']).nullish(),
});

export async function listPayoutRequests(db: Database, input: z.output<typeof payoutListInput>) {
  const { rows, total } = await listPayouts(db, {
    status: input.status ?? undefined,
    ...pageWindow(input),
  });
  return { items: rows.map(payoutView), pagination: paginationOf(input, total) };
}

export const exportInput = z
  .object({
    format: z.enum(['pain.001.001.09', 'pain.001.001.03']).nullish(),
    includeExported: z.boolean().nullish(),
  })
  .nullish();

/**
 * A SEPA credit-transfer file of the open payouts. Each payout goes into one file only unless
 * staff ask again for the exported ones (a lost file), so that a bank is never asked twice.
 * The answer says how many payouts (and how much) it left out because they wait for a release
 * after an IBAN change; the export is published for moderation's audit log (docs/adr/0083).
 */
export async function exportPayoutRequests(
  db: Database,
  debtor: WalletConfig['sepaDebtor'],
  staffId: string,
  input: z.output<typeof exportInput>,
  now = new Date(),
) {
  const version: PainVersion = input?.format ?? 'pain.001.001.09';
  const messageId = `PAYOUTS-${now.toISOString().slice(0, 10)}-${randomBytes(4).toString('hex').toUpperCase()}`;
  return transactionRunner(db)(async (tx) => {
    const payouts = await claimPayoutsForExport(
      tx,
      input?.includeExported ?? false,
      messageId,
      now,
    );
    // Read after the claim, in its transaction: what this file left out.
    const held = await heldForReviewTotals(tx);
    const leftOut = {
      heldForReviewCount: held.count,
      heldForReviewAmount: toInt(held.amountCents),
    };
    if (payouts.length === 0) {
      return {
        status: failStatus(
          'not_found',
          held.count === 0
            ? 'There are no open payout requests to export.'
            : `There is nothing to export: ${heldCountText(held.count)} held for review after a change of bank account. Release ${held.count === 1 ? 'it' : 'them'} once checked.`,
        ),
        ...leftOut,
      };
    }
    const file = buildCreditTransferFile({
      version,
      messageId,
      createdAt: now,
      initiatingParty: { name: debtor.name },
      debtor,
      requestedExecutionDate: now,
      payments: payouts.map((payout) => ({
        // The payout id without dashes: 32 characters, within the 35 allowed, and unique.
        endToEndId: payout.id.replaceAll('-', ''),
        amountCents: Number(payout.amountCents),
        creditor: {
          name: payout.name,
          iban: payout.iban,
          bic: payout.bic ?? undefined,
          address: {
            street: payout.address,
            postalCode: payout.postalCode,
            city: payout.city,
            countryCode: payout.countryCode,
          },
        },
        remittanceInformation: `Challenge platform payout ${payout.id.slice(0, 8)}`,
      })),
    });
    await enqueueEvents(tx, [
      newEvent('PayoutsExported', {
        aggregateId: messageId,
        actorId: staffId,
        data: {
          batch: messageId,
          payoutIds: payouts.map((payout) => payout.id),
          totalCents: file.controlSumCents,
          includeExported: input?.includeExported ?? false,
          heldForReviewCount: held.count,
        },
      }),
    ]);
    return {
      fileName: `${messageId}.${version}.xml`,
      xml: file.xml,
      payoutCount: file.numberOfTransactions,
      totalAmount: toInt(BigInt(file.controlSumCents)),
      ...leftOut,
    };
  });
}

const heldCountText = (count: number) =>
  count === 1 ? '1 payout request is' : `${count} payout requests are`;

/**
 * An erased account's bank details go (GDPR); its payout requests stay, as the bookkeeping
 * record of money paid out that the law asks a business to keep.
 */
export async function forgetPaymentProfile(db: Database, event: DomainEvent<'UserDeleted'>) {
  await handleOnce(transactionRunner(db), CONSUMER, event.id, (tx) =>
    deletePaymentProfile(tx, event.data.userId),
  );
}

export async function getOpenPayoutAmount(db: Database, userId: string) {
  return toInt(await openPayoutCents(db, userId));
}
