import { AppError, envelope, pageRequestSchema, requireRole, requireUser } from '@challenge/kit';
import type { GraphQLResolverMap } from '@apollo/subgraph/dist/schema-helper/resolverMap.js';
import {
  reconcileEscrow,
  resolveStrayHold,
  resolveStrayHoldInput,
  type MismatchRow,
} from '../domain/escrow.ts';
import { moneyTotals, walletHistory } from '../domain/history.ts';
import { getTopUp, initializePayment, initializePaymentInput } from '../domain/payments.ts';
import {
  cancelPayout,
  cancelPayoutInput,
  completePayout,
  exportInput,
  exportPayoutRequests,
  getOpenPayoutAmount,
  getPaymentProfile,
  listPayoutRequests,
  paymentProfileInput,
  payoutListInput,
  payoutRequestInput,
  releasePayout,
  requestPayout,
  updatePaymentProfile,
} from '../domain/payouts.ts';
import { getOwnWallet } from '../domain/wallets.ts';
import type { WalletContext } from '../context.ts';

const STAFF = ['moderator', 'admin'] as const;

const mismatchView = (row: MismatchRow) => ({
  challengeId: row.challengeId,
  party: row.party,
  slug: row.slug,
  challengeName: row.challengeName,
  ownerId: row.ownerId,
  amount: Number(row.amountCents),
  createdAt: row.createdAt.toISOString(),
  challengeStatus: row.challengeStatus,
  expiresAt: row.expiresAt?.toISOString() ?? null,
  reason: row.reason,
  captureTo: row.captureToId ? userReference(row.captureToId) : null,
});

/** A reference to identity's User: the gateway fetches the fields asked for. */
const userReference = (id: string) => ({ __typename: 'User', id });

export const resolvers: GraphQLResolverMap<WalletContext> = {
  User: {
    __resolveReference: (reference: { id: string }) => ({ id: reference.id }),
    /** The owner and staff who verify users (moderator, admin); nobody else learns anything. */
    paymentProfile: (user: { id: string }, _args: unknown, context: WalletContext) => {
      const viewer = context.user;
      if (!viewer) return null;
      const staff = viewer.roles.includes('moderator') || viewer.roles.includes('admin');
      return staff || viewer.id === user.id ? getPaymentProfile(context.db, user.id) : null;
    },
  },
  PayoutRequest: { user: (payout: { userId: string }) => userReference(payout.userId) },
  ResolvedEscrowHold: {
    owner: (hold: { ownerId: string }) => userReference(hold.ownerId),
    payee: (hold: { payeeId: string }) => userReference(hold.payeeId),
  },
  EscrowHold: { owner: (hold: { ownerId: string }) => userReference(hold.ownerId) },
  Query: {
    getWallet: (_parent, _args, context) =>
      envelope(context.logger, async () => ({
        wallet: await getOwnWallet(context.db, context.config.limits, requireUser(context).id),
      })),
    getWalletTransactions: (_parent, args: { page?: number; itemsPerPage?: number }, context) =>
      envelope(context.logger, async () =>
        walletHistory(context.db, requireUser(context).id, pageRequestSchema.parse(args)),
      ).then((result) => ({ items: [], ...result })),
    getTopUp: (_parent, args: { id: string }, context) =>
      envelope(context.logger, async () => {
        const userId = requireUser(context).id;
        return {
          topUp: await getTopUp(context.db, userId, args.id),
          wallet: await getOwnWallet(context.db, context.config.limits, userId),
        };
      }),
    getProfilePaymentInformation: (_parent, _args, context) =>
      envelope(context.logger, async () => {
        const userId = requireUser(context).id;
        return {
          paymentProfile: await getPaymentProfile(context.db, userId),
          wallet: await getOwnWallet(context.db, context.config.limits, userId),
        };
      }),
    getOpenPayoutAmount: (_parent, _args, context) =>
      envelope(context.logger, async () => {
        if (!context.user) throw new AppError('get_open_payout_amount_user_not_logged_in');
        return { openPayoutAmount: await getOpenPayoutAmount(context.db, context.user.id) };
      }),
    paginatedListOfPayoutRequests: (_parent, args: Record<string, unknown>, context) =>
      envelope(context.logger, async () => {
        requireRole(context, ...STAFF);
        return listPayoutRequests(context.db, payoutListInput.parse(args));
      }).then((result) => ({ items: [], ...result })),
    totalMoneyInCirculation: (_parent, _args, context) =>
      envelope(context.logger, async () => {
        requireRole(context, ...STAFF);
        return { totals: await moneyTotals(context.db) };
      }),
    escrowReconciliation: (_parent, _args, context) =>
      envelope(context.logger, async () => {
        requireRole(context, ...STAFF);
        const result = await reconcileEscrow(context.db, context.config.reconciliation.graceMs);
        return {
          holdsWithoutLiveChallenge: result.holdsWithoutLiveChallenge.map(mismatchView),
          liveChallengesWithoutHold: result.liveChallengesWithoutHold.map(mismatchView),
          checkedAt: result.checkedAt.toISOString(),
        };
      }).then((result) => ({
        holdsWithoutLiveChallenge: [],
        liveChallengesWithoutHold: [],
        ...result,
      })),
  },
  Mutation: {
    InitializePayment: (_parent, args: { input: unknown }, context) =>
      envelope(context.logger, async () =>
        initializePayment(
          { ...context.topUps, logger: context.logger },
          requireUser(context).id,
          initializePaymentInput.parse(args.input),
        ),
      ),
    updateProfilePaymentInformation: (_parent, args: { input: unknown }, context) =>
      envelope(context.logger, async () => {
        const viewer = requireUser(context);
        const input = paymentProfileInput.parse(args.input);
        return { paymentProfile: await updatePaymentProfile(context, viewer, input) };
      }),
    payoutRequest: (_parent, args: { input: unknown }, context) =>
      envelope(context.logger, async () => {
        const userId = requireUser(context).id;
        const input = payoutRequestInput.parse(args.input);
        const payoutRequest = await requestPayout(context.db, context.config.limits, userId, input);
        return {
          payoutRequest,
          wallet: await getOwnWallet(context.db, context.config.limits, userId),
        };
      }),
    setPayoutRequestAsCompleted: (_parent, args: { id: string }, context) =>
      envelope(context.logger, async () => {
        const staff = requireRole(context, ...STAFF);
        return { payoutRequest: await completePayout(context.db, staff.id, args.id) };
      }),
    cancelPayoutRequest: (_parent, args: { id: string; reason: string }, context) =>
      envelope(context.logger, async () => {
        const staff = requireRole(context, ...STAFF);
        const input = cancelPayoutInput.parse(args);
        return { payoutRequest: await cancelPayout(context.db, staff.id, input) };
      }),
    releasePayoutRequest: (_parent, args: { id: string }, context) =>
      envelope(context.logger, async () => {
        const staff = requireRole(context, ...STAFF);
        return { payoutRequest: await releasePayout(context.db, staff.id, args.id) };
      }),
    resolveEscrowHold: (_parent, args: { input: unknown }, context) =>
      envelope(context.logger, async () => {
        const staff = requireRole(context, ...STAFF);
        const input = resolveStrayHoldInput.parse(args.input);
        const hold = await resolveStrayHold(
          context.db,
          staff.id,
          input,
          context.config.reconciliation.graceMs,
        );
        return { hold: { ...hold, amount: hold.amountCents } };
      }),
    exportPayoutRequests: (_parent, args: { input?: unknown }, context) =>
      envelope(context.logger, async () => {
        const staff = requireRole(context, ...STAFF);
        return exportPayoutRequests(
          context.db,
          context.config.sepaDebtor,
          staff.id,
          exportInput.parse(args.input),
        );
      }),
  },
};
