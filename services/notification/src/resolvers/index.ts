import { z } from 'zod';
import { envelope, requireUser } from '@challenge/kit';
import type { GraphQLResolverMap } from '@apollo/subgraph/dist/schema-helper/resolverMap.js';
import {
  getEmailPreferences,
  preferencesUpdateSchema,
  updateEmailPreferences,
} from '../domain/preferences.ts';
import type { NotificationContext } from '../context.ts';

const updateArgs = z.object({ input: preferencesUpdateSchema });

export const resolvers: GraphQLResolverMap<NotificationContext> = {
  Query: {
    getEmailPreferences: (_parent, _args, context) =>
      envelope(context.logger, async () => ({
        emailPreferences: await getEmailPreferences(context.db, requireUser(context).id),
      })),
  },
  Mutation: {
    updateEmailPreferences: (_parent, args, context) =>
      envelope(context.logger, async () => {
        const viewer = requireUser(context);
        const { input } = updateArgs.parse(args);
        return { emailPreferences: await updateEmailPreferences(context.db, viewer.id, input) };
      }),
  },
};
