import { enqueueEvents, newEvent, type DomainEvent } from '@challenge/events';
import { AppError, type AuthUser } from '@challenge/kit';
import { z } from 'zod';
import { appendAudit } from '../data/audit.ts';
import { transactionRunner, type Database, type Transaction } from '../data/db.ts';
import { findKnownChallenge, setChallengeModeration } from '../data/projections.ts';
import {
  closeOpenReports,
  findReportById,
  type ReportOutcome,
  type ReportRecord,
} from '../data/reports.ts';
import { conflictOf } from './conflict.ts';

/**
 * Staff actions on a report (docs/adr/0041). Banning is identity's `banUser`: moderation hears
 * its UserBanned event and closes the open reports about that user (see onUserBanned).
 */
export const REPORT_ACTIONS = ['dismiss', 'remove', 'take_offline'] as const;
export type ReportAction = (typeof REPORT_ACTIONS)[number];

export const staffReason = z.string().trim().min(1).max(800);

export const moderateReportInputSchema = z.object({
  reportId: z.uuid(),
  action: z.enum(REPORT_ACTIONS),
  reason: staffReason,
});
export type ModerateReportInput = z.output<typeof moderateReportInputSchema>;

const OUTCOME: Record<ReportAction, ReportOutcome> = {
  dismiss: 'no_action',
  remove: 'removed',
  take_offline: 'taken_offline',
};

/** Every report it closed tells its reporter the outcome (notification mails it). */
function reportResolvedEvents(reports: ReportRecord[], actorId: string | null): DomainEvent[] {
  return reports.map((report) =>
    newEvent('ReportResolved', {
      aggregateId: report.id,
      actorId,
      data: {
        reportId: report.id,
        reporterId: report.reporterId,
        entityType: report.entityType,
        entityId: report.entityId,
        outcome: report.outcome ?? 'no_action',
      },
    }),
  );
}

/**
 * Dismisses a report, or takes its challenge offline or removes it; not by a staff member with a
 * conflict of interest (refuseConflictOfInterest). Acting on a challenge closes
 * every open report about it with the same outcome; the challenge event is published once (a
 * challenge already in that state is not announced again). One transaction: the reports, the
 * events and the audit entry commit together. Who may act is checked by the caller.
 */
export async function moderateReport(
  db: Database,
  actor: AuthUser,
  input: ModerateReportInput,
  now = new Date(),
): Promise<{ outcome: ReportOutcome }> {
  const report = await findReportById(db, input.reportId);
  if (!report) throw new AppError('not_found', 'No report has this id.');
  if (input.action !== 'dismiss' && report.entityType !== 'Challenge') {
    throw new AppError('invalid_action', 'Only a challenge can be removed or taken offline.');
  }
  await refuseConflictOfInterest(db, actor, report);
  const outcome = OUTCOME[input.action];
  await transactionRunner(db)(async (tx) => {
    const closed =
      input.action === 'dismiss'
        ? await closeOpenReports(tx, { id: report.id }, { outcome, resolvedBy: actor.id, now })
        : await actOnChallenge(tx, actor, report, input, now);
    if (!closed.some((each) => each.id === report.id)) {
      throw new AppError('redundant_mutation', 'This report was already handled.');
    }
    await enqueueEvents(tx, reportResolvedEvents(closed, actor.id));
    await appendAudit(tx, {
      actorId: actor.id,
      action:
        input.action === 'dismiss'
          ? 'report_dismissed'
          : input.action === 'remove'
            ? 'challenge_removed'
            : 'challenge_taken_offline',
      targetType: input.action === 'dismiss' ? 'Report' : 'Challenge',
      targetId: input.action === 'dismiss' ? report.id : report.entityId,
      reason: input.reason,
      createdAt: now,
    });
  });
  return { outcome };
}

/**
 * The referees' conflict rule for reports (docs/adr/0070): nobody acts on a report about a
 * challenge they own or perform in, about their own account, or about someone they follow (a
 * party of the challenge, or the reported user).
 */
async function refuseConflictOfInterest(db: Database, actor: AuthUser, report: ReportRecord) {
  const challenge =
    report.entityType === 'Challenge' ? await findKnownChallenge(db, report.entityId) : null;
  const parties = challenge
    ? [challenge.ownerId, challenge.challengedUserId]
    : report.entityType === 'User'
      ? [report.entityId]
      : [];
  const conflict = await conflictOf(db, actor.id, parties);
  if (conflict === 'party') {
    throw new AppError(
      'access_denied',
      report.entityType === 'User'
        ? 'You cannot act on a report about your own account.'
        : 'You cannot act on a report about a challenge you take part in.',
    );
  }
  if (conflict === 'follower') {
    throw new AppError('access_denied', 'You cannot act on a report about someone you follow.');
  }
}

async function actOnChallenge(
  tx: Transaction,
  actor: AuthUser,
  report: ReportRecord,
  input: ModerateReportInput,
  now: Date,
): Promise<ReportRecord[]> {
  const moderation = input.action === 'remove' ? 'removed' : 'offline';
  const closed = await closeOpenReports(
    tx,
    { entityType: 'Challenge', entityId: report.entityId },
    { outcome: OUTCOME[input.action], resolvedBy: actor.id, now },
  );
  if (!closed.some((each) => each.id === report.id)) return closed; // refused by the caller
  if (await setChallengeModeration(tx, report.entityId, moderation, now)) {
    const data = { challengeId: report.entityId, moderatorId: actor.id, reportId: report.id };
    await enqueueEvents(tx, [
      input.action === 'remove'
        ? newEvent('ChallengeRemoved', { aggregateId: report.entityId, actorId: actor.id, data })
        : newEvent('ChallengeTakenOffline', {
            aggregateId: report.entityId,
            actorId: actor.id,
            data,
          }),
    ]);
  }
  return closed;
}

/**
 * identity banned a user (banUser, by a moderator or an admin: identity checks who may): the
 * open reports about that user are actioned, their reporters hear it, and the ban is in the
 * audit log. Runs in the consumer's handleOnce transaction.
 */
const uuidOrNull = (value: string | null) => (z.uuid().safeParse(value).success ? value : null);

export async function onUserBanned(tx: Transaction, event: DomainEvent<'UserBanned'>) {
  const closed = await closeOpenReports(
    tx,
    { entityType: 'User', entityId: event.data.userId },
    {
      outcome: 'user_banned',
      resolvedBy: uuidOrNull(event.actorId),
      now: new Date(event.occurredAt),
    },
  );
  await enqueueEvents(tx, reportResolvedEvents(closed, event.actorId));
  await appendAudit(tx, {
    actorId: uuidOrNull(event.actorId),
    action: event.data.type === 'hard' ? 'user_hard_banned' : 'user_soft_banned',
    targetType: 'User',
    targetId: event.data.userId,
    reason: event.data.reason,
    createdAt: new Date(event.occurredAt),
  });
}

export async function onUserUnbanned(tx: Transaction, event: DomainEvent<'UserUnbanned'>) {
  await appendAudit(tx, {
    actorId: uuidOrNull(event.actorId),
    action: 'user_unbanned',
    targetType: 'User',
    targetId: event.data.userId,
    reason: event.data.reason ?? null,
    createdAt: new Date(event.occurredAt),
  });
}

/** identity publishes UserVerified only for moderatorVerifyUser: the staff member's action. */
export async function onUserVerified(tx: Transaction, event: DomainEvent<'UserVerified'>) {
  await appendAudit(tx, {
    actorId: uuidOrNull(event.actorId),
    action: 'user_verified',
    targetType: 'User',
    targetId: event.data.userId,
    createdAt: new Date(event.occurredAt),
  });
}

/**
 * Staff settled a stray escrow hold in wallet (docs/adr/0072): released to its staker or
 * captured to the other party. The reason is staff's; what moved, and to whom, is in wallet's
 * ledger under the challenge.
 */
export async function onEscrowHoldResolved(
  tx: Transaction,
  event: DomainEvent<'EscrowHoldResolved'>,
) {
  await appendAudit(tx, {
    actorId: uuidOrNull(event.actorId),
    action: `escrow_hold_${event.data.outcome}`,
    targetType: 'Challenge',
    targetId: event.data.challengeId,
    reason: event.data.reason,
    subjectUserId: event.data.payeeId,
    amountCents: BigInt(event.data.amountCents),
    createdAt: new Date(event.occurredAt),
  });
}

/**
 * Staff's actions on payouts in wallet (docs/adr/0082), from the events wallet writes in the
 * transaction of each action: the SEPA export, a release after an IBAN change, a completion, a
 * cancellation (with its reason). Each entry names the payee and the amount.
 */
export async function onPayoutAction(
  tx: Transaction,
  event: DomainEvent<'PayoutReleased' | 'PayoutCompleted' | 'PayoutCancelled'>,
) {
  const action = {
    PayoutReleased: 'payout_released',
    PayoutCompleted: 'payout_completed',
    PayoutCancelled: 'payout_cancelled',
  }[event.type];
  await appendAudit(tx, {
    actorId: uuidOrNull(event.actorId),
    action,
    targetType: 'PayoutRequest',
    targetId: event.data.payoutId,
    reason: event.type === 'PayoutCancelled' ? event.data.reason : null,
    subjectUserId: event.data.userId,
    amountCents: BigInt(event.data.amountCents),
    createdAt: new Date(event.occurredAt),
  });
}

export async function onPayoutsExported(tx: Transaction, event: DomainEvent<'PayoutsExported'>) {
  await appendAudit(tx, {
    actorId: uuidOrNull(event.actorId),
    action: 'payouts_exported',
    targetType: 'PayoutExport',
    targetId: event.data.batch,
    amountCents: BigInt(event.data.totalCents),
    itemCount: event.data.payoutIds.length,
    createdAt: new Date(event.occurredAt),
  });
}
