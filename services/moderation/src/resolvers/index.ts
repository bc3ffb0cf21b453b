import { envelope, pageRequestSchema, requireRole, requireUser } from '@challenge/kit';
import type { GraphQLResolverMap } from '@apollo/subgraph/dist/schema-helper/resolverMap.js';
import { moderateReport, moderateReportInputSchema } from '../domain/actions.ts';
import { listAuditEntries } from '../domain/audit.ts';
import { bringBackOnlineInputSchema, bringChallengeBackOnline } from '../domain/offline.ts';
import {
  decideInputSchema,
  decideRefereeCase,
  listOpenCases,
  listRefusedVideos,
  refereeListQuerySchema,
  type RefereeCaseView,
} from '../domain/referee.ts';
import {
  createReport,
  createReportInputSchema,
  deleteReport,
  listOpenReports,
  listOwnReports,
  reportIdInputSchema,
  reportListQuerySchema,
  type ReportView,
} from '../domain/reports.ts';
import type { AuditEntryView } from '../domain/audit.ts';
import type { ModerationContext } from '../context.ts';

const iso = (value: Date | null) => value?.toISOString() ?? null;

export const resolvers: GraphQLResolverMap<ModerationContext> = {
  Query: {
    paginatedListOfReports: async (_parent, args, context) => ({
      // `items` is non-null in the contract: a failed request carries an empty list.
      items: [],
      ...(await envelope(context.logger, async () => {
        // Staff first: nobody else learns even whether their input would have been valid.
        requireRole(context, 'moderator', 'admin');
        return listOpenReports(context.db, reportListQuerySchema.parse(args));
      })),
    }),
    myReports: async (_parent, args, context) => ({
      items: [],
      ...(await envelope(context.logger, async () => {
        const user = requireUser(context);
        const page = await listOwnReports(context.db, user, pageRequestSchema.parse(args));
        return {
          ...page,
          items: page.items.map((report) => ({
            ...report,
            createdAt: iso(report.createdAt),
            resolvedAt: iso(report.resolvedAt),
          })),
        };
      })),
    }),
    paginatedListOfRefereeChallenges: async (_parent, args, context) => ({
      items: [],
      ...(await envelope(context.logger, async () => {
        requireRole(context, 'referee', 'admin');
        return listOpenCases(context.db, refereeListQuerySchema.parse(args));
      })),
    }),
    paginatedListOfRefusedVideos: async (_parent, args, context) => ({
      items: [],
      ...(await envelope(context.logger, async () => {
        // Disputes are the referees' part (docs/adr/0041, 0057): moderators do not see them.
        requireRole(context, 'referee', 'admin');
        return listRefusedVideos(context.db, refereeListQuerySchema.parse(args));
      })),
    }),
    paginatedListOfAuditEntries: async (_parent, args, context) => ({
      items: [],
      ...(await envelope(context.logger, async () => {
        requireRole(context, 'admin');
        return listAuditEntries(context.db, pageRequestSchema.parse(args));
      })),
    }),
  },
  Mutation: {
    createReport: (_parent, args: { input: unknown }, context) =>
      envelope(context.logger, async () => {
        const user = requireUser(context);
        return {
          report: await createReport(context.db, user, createReportInputSchema.parse(args.input)),
        };
      }),
    deleteReport: (_parent, args: { input: unknown }, context) =>
      envelope(context.logger, async () => {
        const user = requireUser(context);
        await deleteReport(context.db, user, reportIdInputSchema.parse(args.input));
        return {};
      }),
    moderateReport: (_parent, args: { input: unknown }, context) =>
      envelope(context.logger, async () => {
        const staff = requireRole(context, 'moderator', 'admin');
        return moderateReport(context.db, staff, moderateReportInputSchema.parse(args.input));
      }),
    bringChallengeBackOnline: (_parent, args: { input: unknown }, context) =>
      envelope(context.logger, async () => {
        const staff = requireRole(context, 'moderator', 'admin');
        await bringChallengeBackOnline(
          context.db,
          staff,
          bringBackOnlineInputSchema.parse(args.input),
        );
        return {};
      }),
    decideRefereeCase: (_parent, args: { input: unknown }, context) =>
      envelope(context.logger, async () => {
        const referee = requireRole(context, 'referee', 'admin');
        return {
          refereeCase: await decideRefereeCase(
            context.db,
            referee,
            decideInputSchema.parse(args.input),
          ),
        };
      }),
  },
  Report: {
    reporter: (report: ReportView) => ({ id: report.reporterId }),
  },
  RefereeCase: {
    challenge: (record: RefereeCaseView) => ({ id: record.challengeId }),
    owner: (record: RefereeCaseView) => ({ id: record.ownerId }),
    challengedUser: (record: RefereeCaseView) =>
      record.challengedUserId ? { id: record.challengedUserId } : null,
    performer: (record: RefereeCaseView) =>
      record.performerId ? { id: record.performerId } : null,
    referee: (record: RefereeCaseView) => (record.refereeId ? { id: record.refereeId } : null),
    caseStatus: (record: RefereeCaseView) => record.status,
    openedAt: (record: RefereeCaseView) => iso(record.openedAt),
    deadline: (record: RefereeCaseView) => iso(record.deadline),
    escalatedAt: (record: RefereeCaseView) => iso(record.escalatedAt),
    decidedAt: (record: RefereeCaseView) => iso(record.decidedAt),
  },
  AuditEntry: {
    actor: (entry: AuditEntryView) => (entry.actorId ? { id: entry.actorId } : null),
    subjectUser: (entry: AuditEntryView) =>
      entry.subjectUserId ? { id: entry.subjectUserId } : null,
    amount: (entry: AuditEntryView) =>
      entry.amountCents === null ? null : Number(entry.amountCents),
    createdAt: (entry: AuditEntryView) => iso(entry.createdAt),
  },
};
