import { envelope, requireRole } from '@challenge/kit';
import type { GraphQLResolverMap } from '@apollo/subgraph/dist/schema-helper/resolverMap.js';
import { listOpenReports, reportListQuerySchema, type ReportView } from '../domain/reports.ts';
import type { ModerationContext } from '../context.ts';

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
  },
  Report: {
    reporter: (report: ReportView) => ({ id: report.reporterId }),
  },
};
