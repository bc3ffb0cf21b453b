import { z } from 'zod';
import { envelope, pageRequestSchema, requireUser } from '@challenge/kit';
import type { GraphQLResolverMap } from '@apollo/subgraph/dist/schema-helper/resolverMap.js';
import { getActivityLog } from '../domain/activity.ts';
import {
  getEmailPreferences,
  preferencesUpdateSchema,
  updateEmailPreferences,
} from '../domain/preferences.ts';
import { preferencesOwner } from '../domain/preference-links.ts';
import { invitationOptOut, updateInvitationOptOut } from '../domain/opt-outs.ts';
import type { NotificationContext } from '../context.ts';

const token = z.string().max(512).nullish();
const getArgs = z.object({ input: z.object({ token }).nullish() });
const updateArgs = z.object({ input: preferencesUpdateSchema.extend({ token }) });
const optOutToken = z.string().min(1).max(512);
const optOutArgs = z.object({ input: z.object({ token: optOutToken }) });
const setOptOutArgs = z.object({
  input: z.object({ token: optOutToken, optedOut: z.boolean() }),
});

/** Whose preferences a request is about: the link's token, else the logged-in user. */
const ownerOf = (context: NotificationContext, given: string | null | undefined) =>
  preferencesOwner(context.db, context.links.secret, given, () => requireUser(context).id);

export const resolvers: GraphQLResolverMap<NotificationContext> = {
  Query: {
    getEmailPreferences: (_parent, args, context) =>
      envelope(context.logger, async () => {
        const { input } = getArgs.parse(args);
        const userId = await ownerOf(context, input?.token);
        return { emailPreferences: await getEmailPreferences(context.db, userId) };
      }),
    getActivityLogByUser: async (_parent, args, context) => ({
      // `items` is non-null in the contract: a failed request carries an empty list.
      items: [],
      ...(await envelope(context.logger, async () => {
        const viewer = requireUser(context);
        return getActivityLog(context.db, viewer.id, pageRequestSchema.parse(args));
      })),
    }),
    // Anyone with the link's token: the invited address needs no account (docs/adr/0074).
    getInvitationOptOut: (_parent, args, context) =>
      envelope(context.logger, async () => {
        const { input } = optOutArgs.parse(args);
        return {
          invitationOptOut: await invitationOptOut(context.db, context.links.secret, input.token),
        };
      }),
  },
  Mutation: {
    updateEmailPreferences: (_parent, args, context) =>
      envelope(context.logger, async () => {
        const { input } = updateArgs.parse(args);
        const { token: given, ...choices } = input;
        const userId = await ownerOf(context, given);
        return { emailPreferences: await updateEmailPreferences(context.db, userId, choices) };
      }),
    updateInvitationOptOut: (_parent, args, context) =>
      envelope(context.logger, async () => {
        const { input } = setOptOutArgs.parse(args);
        return {
          invitationOptOut: await updateInvitationOptOut(context.db, context.links.secret, input),
        };
      }),
  },
};
