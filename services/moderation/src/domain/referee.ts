import { enqueueEvents, newEvent, type DomainEvent } from '@challenge/events';
import {
  AppError,
  pageRequestSchema,
  pageWindow,
  paginationOf,
  type AuthUser,
  type PageRequest,
  type Pagination,
} from '@challenge/kit';
import type { Logger } from 'pino';
import { z } from 'zod';
import { appendAudit } from '../data/audit.ts';
import { transactionRunner, type Database, type Transaction } from '../data/db.ts';
import { findKnownChallenge } from '../data/projections.ts';
import {
  attributeUnrecordedCase,
  decideCase,
  escalateOverdue,
  findCasesPage,
  findOpenCasesPage,
  findRefereeCase,
  insertRefereeCase,
  tryLockEscalation,
  withdrawOpenCases,
  type RefereeCaseRecord,
} from '../data/referee.ts';
import { staffReason } from './actions.ts';
import { conflictOf } from './conflict.ts';

/** The spec: a referee decides within one week. */
export const REFEREE_WINDOW_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * A judge rejected a video (ChallengeSentToReferee): the case of that side opens with the
 * judge's reason, the side's performer and proof video, and a deadline one window after the
 * event (docs/adr/0070). A solo challenge's one side is its challenged user's, and its proof is
 * the challenge's one video; a duel's event names the side and its video. Events older than
 * `challengeType` are all solo.
 */
export async function openRefereeCase(
  tx: Transaction,
  event: DomainEvent<'ChallengeSentToReferee'>,
  windowMs: number,
): Promise<void> {
  const { data } = event;
  const duel = data.challengeType === 'duel';
  const performerId = data.performerId ?? (duel ? null : data.challengedUserId);
  const videoId =
    data.videoId ?? (duel ? null : (await findKnownChallenge(tx, data.challengeId))?.videoId);
  const openedAt = new Date(event.occurredAt);
  if (performerId) {
    const otherParty = performerId === data.ownerId ? data.challengedUserId : data.ownerId;
    if (otherParty) await attributeUnrecordedCase(tx, data.challengeId, otherParty);
  }
  await insertRefereeCase(tx, {
    challengeId: data.challengeId,
    ownerId: data.ownerId,
    challengedUserId: data.challengedUserId,
    performerId,
    slug: data.slug,
    challengeName: data.challengeName,
    rewardCents: data.rewardCents,
    reason: data.reason,
    videoId: videoId ?? null,
    openedAt,
    deadline: new Date(openedAt.getTime() + windowMs),
  });
}

/**
 * The challenge ended another way while a case of it was open (removed by staff: challenge
 * cancels it as the system and the money goes back): its cases are closed undecided, off the
 * referees' list, because a decision would move nothing (challenge ignores a RefereeDecided for a
 * side no longer in referee). Before, such a case stayed open, was escalated to admins and could
 * be "decided" to no effect.
 */
export async function withdrawCasesOfEndedChallenge(
  tx: Transaction,
  event: DomainEvent,
): Promise<void> {
  const { challengeId } = event.data as { challengeId: string };
  await withdrawOpenCases(tx, challengeId, new Date(event.occurredAt));
}

export interface RefereeCaseView extends RefereeCaseRecord {
  overdue: boolean;
}

/** Overdue: still open past the deadline (or escalated); a decided case is not overdue any more. */
const view = (record: RefereeCaseRecord, now: Date): RefereeCaseView => ({
  ...record,
  overdue: record.status === 'open' && (record.escalatedAt !== null || record.deadline <= now),
});

export const refereeListQuerySchema = pageRequestSchema;

/** The open cases, nearest deadline (so overdue) first. Who may read it is checked by the caller. */
export async function listOpenCases(
  db: Database,
  query: PageRequest,
  now = new Date(),
): Promise<{ items: RefereeCaseView[]; pagination: Pagination }> {
  const { items, totalCount } = await findOpenCasesPage(db, pageWindow(query));
  return {
    items: items.map((record) => view(record, now)),
    pagination: paginationOf(query, totalCount),
  };
}

/**
 * The refused videos (the console's tab, docs/adr/0057): every proof an owner rejected, newest
 * first, open or decided, with the outcome. Who may read it is checked by the caller.
 */
export async function listRefusedVideos(
  db: Database,
  query: PageRequest,
  now = new Date(),
): Promise<{ items: RefereeCaseView[]; pagination: Pagination }> {
  const { items, totalCount } = await findCasesPage(db, pageWindow(query));
  return {
    items: items.map((record) => view(record, now)),
    pagination: paginationOf(query, totalCount),
  };
}

export const decideInputSchema = z.object({
  caseId: z.uuid(),
  decision: z.enum(['approve', 'reject']),
  reason: staffReason,
});
export type DecideInput = z.output<typeof decideInputSchema>;

/**
 * A referee (or an admin) decides an open case with a written reason: RefereeDecided, naming the
 * case's side, moves that side of the challenge (challenge consumes it; it is the only way a
 * referee's decision reaches a challenge) and the money follows. A party to the challenge cannot
 * judge it, nor one who follows a party (docs/adr/0041, 0070). Decided once: the conditional
 * update on `status = open` lets one of two concurrent decisions through, the other is
 * redundant_mutation; the decision, its event and its audit entry commit together.
 */
export async function decideRefereeCase(
  db: Database,
  referee: AuthUser,
  input: DecideInput,
  now = new Date(),
): Promise<RefereeCaseView> {
  const record = await findRefereeCase(db, input.caseId);
  if (!record) throw new AppError('not_found', 'No referee case has this id.');
  if (record.status === 'withdrawn') throw caseWithdrawn();
  const conflict = await conflictOf(db, referee.id, [record.ownerId, record.challengedUserId]);
  if (conflict === 'party') {
    throw new AppError('access_denied', 'You cannot judge a challenge you take part in.');
  }
  if (conflict === 'follower') {
    throw new AppError('access_denied', 'You cannot judge a challenge of someone you follow.');
  }
  const decision = input.decision === 'approve' ? 'approved' : 'failed';
  await transactionRunner(db)(async (tx) => {
    const decided = await decideCase(tx, record.id, {
      decision,
      comment: input.reason,
      refereeId: referee.id,
      now,
    });
    if (!decided) {
      const now = await findRefereeCase(tx, record.id);
      if (now?.status === 'withdrawn') throw caseWithdrawn();
      throw new AppError('redundant_mutation', 'This case was already decided.');
    }
    await enqueueEvents(tx, [
      newEvent('RefereeDecided', {
        aggregateId: record.challengeId,
        actorId: referee.id,
        data: {
          caseId: record.id,
          challengeId: record.challengeId,
          refereeId: referee.id,
          decision,
          comment: input.reason,
          performerId: record.performerId,
        },
      }),
    ]);
    // Against the case: a duel has a case per side, each decided on its own.
    await appendAudit(tx, {
      actorId: referee.id,
      action: decision === 'approved' ? 'referee_approved' : 'referee_rejected',
      targetType: 'RefereeCase',
      targetId: record.id,
      reason: input.reason,
      createdAt: now,
    });
  });
  const after = await findRefereeCase(db, record.id);
  return view(after ?? record, now);
}

const caseWithdrawn = () =>
  new AppError('invalid_action', 'This challenge ended another way; its case is closed.');

const BATCH = 100;

/**
 * One pass of the escalation: open cases past their deadline are marked escalated (shown as
 * overdue, first in the list), the escalation is in the audit log, and RefereeCaseEscalated goes
 * through the outbox in the same transaction, so admins are mailed once per case (docs/adr/0058).
 * Safe with any number of instances: one holds the advisory lock, rows are updated once
 * (escalated_at IS NULL).
 */
export async function escalateOverdueOnce(db: Database, now = new Date()): Promise<number> {
  let total = 0;
  for (;;) {
    const escalated = await transactionRunner(db)(async (tx) => {
      if (!(await tryLockEscalation(tx))) return null;
      const rows = await escalateOverdue(tx, now, BATCH);
      await enqueueEvents(
        tx,
        rows.map((row) =>
          newEvent('RefereeCaseEscalated', {
            aggregateId: row.challengeId,
            actorId: null,
            data: {
              caseId: row.id,
              challengeId: row.challengeId,
              slug: row.slug,
              challengeName: row.challengeName,
              rewardCents: row.rewardCents,
              deadline: row.deadline.toISOString(),
              escalatedAt: now.toISOString(),
              performerUsername: row.performerUsername,
            },
          }),
        ),
      );
      for (const row of rows) {
        await appendAudit(tx, {
          actorId: null,
          action: 'referee_case_escalated',
          targetType: 'RefereeCase',
          targetId: row.id,
          reason: 'The referee deadline passed.',
          createdAt: now,
        });
      }
      return rows.length;
    });
    if (escalated === null) return total;
    total += escalated;
    if (escalated < BATCH) return total;
  }
}

export interface Scheduler {
  stop(): Promise<void>;
}

export function startEscalationScheduler(
  db: Database,
  options: { intervalMs: number; logger: Logger; clock?: () => Date },
): Scheduler {
  const clock = options.clock ?? (() => new Date());
  let stopped = false;
  let running: Promise<unknown> = Promise.resolve();
  const tick = () => {
    if (stopped) return;
    running = escalateOverdueOnce(db, clock())
      .catch((error: unknown) => options.logger.error({ err: error }, 'escalation pass failed'))
      .finally(() => {
        if (!stopped) timer = setTimeout(tick, options.intervalMs);
      });
  };
  let timer = setTimeout(tick, options.intervalMs);
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
