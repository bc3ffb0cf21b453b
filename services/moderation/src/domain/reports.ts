import { z } from 'zod';
import type { Database } from '../data/db.ts';
import {
  findKnownChallenge,
  findKnownUser,
  type KnownChallengeRecord,
  type KnownUserRecord,
} from '../data/projections.ts';
import {
  createReportRow,
  deleteOpenReport,
  DuplicateReportError,
  findReporterPage,
  findReportsPage,
  type ReportEntityType,
  type ReportOutcome,
  type ReportReason,
  type ReportRecord,
} from '../data/reports.ts';
import {
  AppError,
  pageRequestSchema,
  pageWindow,
  paginationOf,
  type AuthUser,
  type PageRequest,
  type Pagination,
} from '@challenge/kit';

export const REPORT_ENTITY_TYPES = [
  'Challenge',
  'User',
] as const satisfies readonly ReportEntityType[];

export const reportListQuerySchema = pageRequestSchema.extend({
  type: z.enum(REPORT_ENTITY_TYPES),
});
export type ReportListQuery = z.output<typeof reportListQuerySchema>;

export interface ReportView {
  id: string;
  title: string;
  url: string;
  slug: string | null;
  reason: string;
  details: string | null;
  entityId: string;
  entityType: ReportEntityType;
  reporterId: string;
}

export function toReportView(report: ReportRecord): ReportView {
  return {
    id: report.id,
    title: report.title,
    url: report.url,
    slug: report.slug,
    reason: report.reason,
    details: report.details,
    entityId: report.entityId,
    entityType: report.entityType,
    reporterId: report.reporterId,
  };
}

/**
 * The staff queue: open reports about one kind of entity, newest first. Resolved and dismissed
 * reports have been handled and leave the queue. Who may read it is checked by the caller.
 */
export async function listOpenReports(
  db: Database,
  query: ReportListQuery,
): Promise<{ items: ReportView[]; pagination: Pagination }> {
  const { items, totalCount } = await findReportsPage(
    db,
    { status: 'open', entityType: query.type },
    pageWindow(query),
  );
  return { items: items.map(toReportView), pagination: paginationOf(query, totalCount) };
}

export const REPORT_REASONS = [
  'inappropriate',
  'harmful',
  'harassment',
  'misleading',
  'spam',
  'intellectual_property',
  'other',
] as const satisfies readonly ReportReason[];

/**
 * Reasons whose name alone does not tell staff what is wrong (docs/adr/0040): who is harassed and
 * how, what is misleading, whose work was copied, what "other" means. The rest are visible in the
 * content itself, so details are optional for them.
 */
export const REASONS_NEEDING_DETAILS: readonly ReportReason[] = [
  'harassment',
  'misleading',
  'intellectual_property',
  'other',
];

export const DETAILS_REQUIRED_MESSAGE = 'Please provide details for your report.';

export const createReportInputSchema = z.object({
  entityType: z.enum(REPORT_ENTITY_TYPES),
  entityId: z.uuid(),
  reason: z.enum(REPORT_REASONS),
  details: z
    .string()
    .trim()
    .max(800)
    .nullish()
    .transform((value) => (value ? value : null)),
});
export type CreateReportInput = z.output<typeof createReportInputSchema>;

/** The details rule, purely: throws invalid_user_input with the spec's text when it is broken. */
export function checkDetails(input: Pick<CreateReportInput, 'reason' | 'details'>): void {
  if (REASONS_NEEDING_DETAILS.includes(input.reason) && !input.details) {
    throw new AppError('invalid_user_input', DETAILS_REQUIRED_MESSAGE);
  }
}

/** Referees, moderators and admins see every challenge and account, as in challenge and identity. */
const STAFF_ROLES: readonly string[] = ['referee', 'moderator', 'admin'];
const isStaff = (user: AuthUser) => user.roles.some((role) => STAFF_ROLES.includes(role));

/**
 * Whether the reporter may see the challenge, by challenge's own rule (docs/adr/0074): removed is
 * gone for everyone; staff see the rest; others neither what staff took offline nor a private
 * challenge they are no party of. An unknown visibility (ChallengeCreated not yet projected) counts
 * as private.
 */
export function mayReportChallenge(challenge: KnownChallengeRecord, reporter: AuthUser): boolean {
  if (challenge.moderation === 'removed') return false;
  if (isStaff(reporter)) return true;
  if (challenge.moderation) return false;
  if (challenge.visibility === 'public') return true;
  return reporter.id === challenge.ownerId || reporter.id === challenge.challengedUserId;
}

/** A deleted account is gone; a banned one is hidden from all but staff and itself, as in identity. */
export function mayReportUser(user: KnownUserRecord, reporter: AuthUser): boolean {
  if (user.deleted) return false;
  return !user.banType || isStaff(reporter) || user.id === reporter.id;
}

/**
 * A user reports a challenge or a user that moderation knows (its projections of challenge.v1
 * and identity.v1) and that they may see: anything else is challenge_not_found / user_not_found,
 * whether it exists or not, and nothing is stored (docs/adr/0074). Once per content
 * (redundant_report, decided by the unique constraint so that a double click cannot slip
 * through). Nobody reports themselves or their own challenge.
 */
export async function createReport(
  db: Database,
  reporter: AuthUser,
  input: CreateReportInput,
): Promise<ReportView> {
  checkDetails(input);
  let subject: { title: string; url: string; slug: string | null; ownerId: string };
  if (input.entityType === 'Challenge') {
    const challenge = await findKnownChallenge(db, input.entityId);
    if (!challenge || !mayReportChallenge(challenge, reporter)) {
      throw new AppError('challenge_not_found');
    }
    subject = {
      title: challenge.name,
      url: `/challenge/${challenge.slug}/detail`,
      slug: challenge.slug,
      ownerId: challenge.ownerId,
    };
  } else {
    const user = await findKnownUser(db, input.entityId);
    if (!user || !mayReportUser(user, reporter)) throw new AppError('user_not_found');
    subject = {
      title: user.username,
      url: `/profile/${user.username}`,
      slug: null,
      ownerId: user.id,
    };
  }
  if (subject.ownerId === reporter.id) {
    throw new AppError('invalid_action', 'You cannot report yourself or your own challenge.');
  }
  try {
    const report = await createReportRow(db, {
      reporterId: reporter.id,
      entityType: input.entityType,
      entityId: input.entityId,
      reason: input.reason,
      details: input.details,
      title: subject.title,
      url: subject.url,
      slug: subject.slug,
    });
    return toReportView(report);
  } catch (error) {
    if (error instanceof DuplicateReportError) throw new AppError('redundant_report');
    throw error;
  }
}

export const reportIdInputSchema = z.object({ reportId: z.uuid() });

/** Its reporter withdraws a report while it is open; not_found otherwise (others' reports too). */
export async function deleteReport(
  db: Database,
  reporter: AuthUser,
  input: { reportId: string },
): Promise<void> {
  if (!(await deleteOpenReport(db, input.reportId, reporter.id))) {
    throw new AppError('not_found', 'No open report of yours has this id.');
  }
}

/** What the reporter sees of what staff did: pending, actioned or dismissed. */
export type ReportOutcomeView = 'pending' | 'actioned' | 'dismissed';

export function outcomeOf(report: Pick<ReportRecord, 'status'>): ReportOutcomeView {
  if (report.status === 'open') return 'pending';
  return report.status === 'dismissed' ? 'dismissed' : 'actioned';
}

/** What staff did about an actioned report; null while it is pending and when it was dismissed. */
export type ReportActionView = Exclude<ReportOutcome, 'no_action'>;

export function actionOf(report: Pick<ReportRecord, 'outcome'>): ReportActionView | null {
  return report.outcome && report.outcome !== 'no_action' ? report.outcome : null;
}

export interface OwnReportView extends ReportView {
  outcome: ReportOutcomeView;
  action: ReportActionView | null;
  createdAt: Date;
  resolvedAt: Date | null;
}

export async function listOwnReports(
  db: Database,
  reporter: AuthUser,
  query: PageRequest,
): Promise<{ items: OwnReportView[]; pagination: Pagination }> {
  const { items, totalCount } = await findReporterPage(db, reporter.id, pageWindow(query));
  return {
    items: items.map((report) => ({
      ...toReportView(report),
      outcome: outcomeOf(report),
      action: actionOf(report),
      createdAt: report.createdAt,
      resolvedAt: report.resolvedAt,
    })),
    pagination: paginationOf(query, totalCount),
  };
}
