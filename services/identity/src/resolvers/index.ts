import type { GraphQLResolverMap } from '@apollo/subgraph/dist/schema-helper/resolverMap.js';
import {
  AppError,
  envelope,
  failStatus,
  pageRequestSchema,
  requireRole,
  requireUser,
  type Logger,
} from '@challenge/kit';
import { z } from 'zod';
import { findUserById } from '../data/users.ts';
import { setBan } from '../domain/bans.ts';
import { SuspendedAccountError } from '../domain/auth.ts';
import { verifyUserByModerator } from '../domain/lifecycle.ts';
import { listBannedUsers, listUnverifiedUsers } from '../domain/staff-lists.ts';
import { avatarField } from '../domain/avatars.ts';
import {
  changeProfile,
  getSettings,
  discoverUsers,
  getUserProfile,
  listFollows,
  minimalChallengeInput,
  requestDeletion,
  setFollowing,
  updateOwnProfile,
} from '../domain/profiles.ts';
import { REAUTH_PURPOSES } from '../domain/rules.ts';
import type { IdentityContext } from '../context.ts';
import { graphqlCjs } from '../graphql-realm.ts';

const { GraphQLError, GraphQLScalarType } = graphqlCjs;

/**
 * Files reach updateProfile only through media's multipart route (docs/adr/0049). Here, in JSON,
 * an Upload is never a file: any value but null parses as NOT_AN_UPLOAD and the resolver answers
 * invalid_file in its status (a client cannot point its avatar at a URL or someone's key).
 */
const NOT_AN_UPLOAD = Symbol('not an upload');
const UploadScalar = new GraphQLScalarType<typeof NOT_AN_UPLOAD, never>({
  name: 'Upload',
  parseValue: () => NOT_AN_UPLOAD,
  parseLiteral: () => NOT_AN_UPLOAD,
  serialize() {
    throw new GraphQLError('Upload is an input type only.');
  },
});

const text = z.string().max(1000);
const requestLoginLinkInput = z.object({ email: text, originUrl: z.string().max(2048) });
const verifyLoginLinkInput = z.object({
  email: text,
  expires: z.number().int(),
  hash: z.string().min(1).max(200),
});
const verifyLoginCodeInput = z.object({ email: text, code: z.string().min(1).max(20) });
const loginInput = z.object({
  username: z.string().min(1).max(200),
  password: z.string().min(1).max(1000),
});
const verifyUserInput = z.object({
  email: text,
  code: z.string().max(20).nullish(),
  hash: z.string().max(200).nullish(),
  expires: z.number().int().nullish(),
  username: z.string().max(100),
  password: z.string().max(1000),
  repeatPassword: z.string().max(1000),
  birthday: z.string().max(20),
  phoneNumber: z.string().max(40).nullish(),
  acceptTerms: z.boolean(),
});
const forgotInput = z.object({ email: text });
const resetInput = z.object({
  token: z.string().min(1).max(200),
  password: z.string().max(1000),
  repeatPassword: z.string().max(1000),
});
const changeInput = z.object({
  currentPassword: z.string().max(1000),
  password: z.string().max(1000),
  repeatPassword: z.string().max(1000),
});
const reauthInput = z.object({
  purpose: z.enum(REAUTH_PURPOSES),
  password: z.string().min(1).max(1000).nullish(),
  code: z.string().min(1).max(20).nullish(),
});
const banInput = z.object({
  userId: z.uuid(),
  type: z.enum(['soft', 'hard']),
  reason: z.string().max(800).nullish(),
});
/**
 * The log-in mutations' envelope: a suspended account's refusal also says since when and why,
 * for the person who just proved who they are (docs/adr/0083).
 */
const logInEnvelope = <T extends object>(logger: Logger, run: () => Promise<T>) =>
  envelope(logger, async () => {
    try {
      return await run();
    } catch (error) {
      if (!(error instanceof SuspendedAccountError)) throw error;
      return { status: failStatus('banned_user'), suspension: error.suspension };
    }
  });

/** Staff actions on one user (unban, verify). */
const unbanInput = z.object({ userId: z.uuid(), reason: z.string().trim().min(1).max(800) });
/** The verification queue's outcomes: verify, or ban (hard unless said otherwise). */
const verifyInput = z.object({
  userId: z.uuid(),
  decision: z
    .enum(['verify', 'ban'])
    .nullish()
    .transform((value) => value ?? 'verify'),
  banType: z
    .enum(['soft', 'hard'])
    .nullish()
    .transform((value) => value ?? 'hard'),
  reason: z.string().max(800).nullish(),
});
const bannedListArgs = pageRequestSchema.extend({ type: z.enum(['soft', 'hard']) });
/** The verification queue, optionally narrowed to a part of a username or e-mail address. */
const unverifiedListInput = pageRequestSchema.extend({
  search: z.string()
    .trim()
    .max(100)
    .nullish()
    .transform((value) => value || null),
});
const iso = (value: Date | null) => value?.toISOString() ?? null;

const followInput = z.object({ username: z.string().min(1).max(100) });
const usernameArgs = z.object({ username: z.string().min(1).max(100) });
const discoverUsersInput = pageRequestSchema.extend({ list: z.string().max(50).nullish() });

type Args = { input: unknown };
type PageArgs = { username: string; page?: number; itemsPerPage?: number };

const ok = {};
const STAFF = ['moderator', 'admin'] as const;

export const resolvers: GraphQLResolverMap<IdentityContext> = {
  Query: {
    paginatedListOfBannedUsers: async (_parent, args, context) => ({
      items: [],
      ...(await envelope(context.logger, async () => {
        requireRole(context, ...STAFF);
        const { type, ...page } = bannedListArgs.parse(args);
        const result = await listBannedUsers(context.db, type, page);
        return {
          ...result,
          items: result.items.map((user) => ({ ...user, bannedAt: iso(user.bannedAt) })),
        };
      })),
    }),
    paginatedListOfUnverifiedUsers: async (_parent, args: { input?: unknown }, context) => ({
      items: [],
      ...(await envelope(context.logger, async () => {
        requireRole(context, ...STAFF);
        const { search, ...page } = unverifiedListInput.parse(args.input ?? {});
        const result = await listUnverifiedUsers(context.db, page, search);
        return {
          ...result,
          items: result.items.map((user) => ({
            ...user,
            birthday: user.birthday?.toISOString().slice(0, 10) ?? null,
            createdAt: iso(user.createdAt),
            // Identity resolves User's own fields from this object (no reference lookup here).
            user: {
              id: user.id,
              username: user.username,
              displayName: user.displayName,
              avatar: user.avatar,
            },
          })),
        };
      })),
    }),
    getCurrentUserProfile: (_parent, _args, context) =>
      envelope(context.logger, async () => {
        const viewer = requireUser(context);
        const profile = await findUserById(context.db, viewer.id);
        if (!profile) throw new AppError('authorized_user_not_found');
        return { profile };
      }),
    getUserProfile: (_parent, args: { username: string; showPrivate?: boolean | null }, context) =>
      envelope(context.logger, async () => ({
        profile: await getUserProfile(
          context.db,
          context.user,
          usernameArgs.parse(args).username,
          args.showPrivate === true,
        ),
      })),
    discoverUsers: (_parent, args: { input?: unknown }, context) =>
      envelope(context.logger, () => {
        const { list, ...page } = discoverUsersInput.parse(args.input ?? {});
        return discoverUsers(context.db, context.user, { list: list ?? 'all', page });
      }).then((result) => ({ items: [], ...result })),
    getSettings: (_parent, args: { username?: string | null }, context) =>
      envelope(context.logger, async () => {
        const viewer = requireUser(context);
        const settings = await getSettings(context.db, viewer);
        if (args.username && args.username.toLowerCase() !== settings.username.toLowerCase()) {
          throw new AppError('access_denied');
        }
        return { settings };
      }),
    getFollowers: (_parent, args: PageArgs, context) =>
      envelope(context.logger, () =>
        listFollows(
          context.db,
          context.user,
          usernameArgs.parse(args).username,
          'followers',
          pageRequestSchema.parse(args),
        ),
      ).then((result) => ({ items: [], ...result })),
    getFollowing: (_parent, args: PageArgs, context) =>
      envelope(context.logger, () =>
        listFollows(
          context.db,
          context.user,
          usernameArgs.parse(args).username,
          'following',
          pageRequestSchema.parse(args),
        ),
      ).then((result) => ({ items: [], ...result })),
  },
  Mutation: {
    requestLoginLink: (_parent, { input }: Args, context) =>
      envelope(context.logger, () =>
        context.auth.requestLoginLink(requestLoginLinkInput.parse(input)),
      ),
    verifyLoginLink: (_parent, { input }: Args, context) =>
      logInEnvelope(context.logger, () =>
        context.auth.verifyInbox(verifyLoginLinkInput.parse(input)),
      ),
    verifyLoginCode: (_parent, { input }: Args, context) =>
      logInEnvelope(context.logger, () =>
        context.auth.verifyInbox(verifyLoginCodeInput.parse(input)),
      ),
    verifyUser: (_parent, { input }: Args, context) =>
      logInEnvelope(context.logger, () => {
        const { code, hash, expires, ...form } = verifyUserInput.parse(input);
        const proof = code ? { code } : hash && expires ? { hash, expires } : null;
        if (!proof)
          throw new AppError(
            'invalid_input',
            'Give the code, or the hash and expires of the link.',
          );
        return context.auth.verifyUser({ ...form, proof });
      }),
    login: (_parent, { input }: Args, context) =>
      logInEnvelope(context.logger, () => context.auth.login(loginInput.parse(input))),
    logout: (_parent, _args, context) =>
      envelope(context.logger, async () => {
        await context.auth.logout(requireUser(context));
        return {};
      }),
    requestForgotPasswordLink: (_parent, { input }: Args, context) =>
      envelope(context.logger, async () => {
        await context.auth.requestForgotPasswordLink(forgotInput.parse(input));
        return {};
      }),
    resetForgottenPassword: (_parent, { input }: Args, context) =>
      envelope(context.logger, async () => {
        await context.auth.resetForgottenPassword(resetInput.parse(input));
        return {};
      }),
    changePassword: (_parent, { input }: Args, context) =>
      envelope(context.logger, async () => {
        await context.auth.changePassword(requireUser(context), changeInput.parse(input));
        return {};
      }),
    reauthenticate: (_parent, { input }: Args, context) =>
      envelope(context.logger, () =>
        context.auth.reauthenticate(requireUser(context), reauthInput.parse(input)),
      ),
    updateProfile: (_parent, { input }: Args, context) =>
      envelope(context.logger, async () => {
        const viewer = requireUser(context);
        const { avatar, ...fields } = z.record(z.string(), z.unknown()).parse(input);
        if (avatar !== undefined && avatar !== null) {
          throw new AppError('invalid_file', 'Upload the avatar with a multipart request.');
        }
        const {
          avatar: url,
          displayName,
          bio,
        } = await updateOwnProfile(context.db, viewer, {
          fields,
          ...(avatar === null ? { avatarKey: null } : {}),
        });
        return { avatar: url, displayName, bio };
      }),
    updateChallengeableProfile: (_parent, { input }: Args, context) =>
      envelope(context.logger, async () => {
        const { challengeable } = z.object({ challengeable: z.boolean() }).parse(input);
        await changeProfile(context.db, requireUser(context), { challengeable });
        return ok;
      }),
    updatePublicProfile: (_parent, { input }: Args, context) =>
      envelope(context.logger, async () => {
        const { publicProfile } = z.object({ publicProfile: z.boolean() }).parse(input);
        await changeProfile(context.db, requireUser(context), { publicProfile });
        return ok;
      }),
    updateMinimalChallenge: (_parent, { input }: Args, context) =>
      envelope(context.logger, async () => {
        await changeProfile(context.db, requireUser(context), minimalChallengeInput.parse(input));
        return ok;
      }),
    followUser: (_parent, { input }: Args, context) =>
      envelope(context.logger, async () => {
        await setFollowing(
          context.db,
          requireUser(context),
          followInput.parse(input).username,
          true,
        );
        return ok;
      }),
    unfollowUser: (_parent, { input }: Args, context) =>
      envelope(context.logger, async () => {
        await setFollowing(
          context.db,
          requireUser(context),
          followInput.parse(input).username,
          false,
        );
        return ok;
      }),
    deleteUser: (_parent, _args, context) =>
      envelope(context.logger, async () => {
        await requestDeletion(context.db, requireUser(context));
        return ok;
      }),
    banUser: (_parent, { input }: Args, context) =>
      envelope(context.logger, async () => {
        const actor = requireRole(context, ...STAFF);
        const { userId, type, reason } = banInput.parse(input);
        await setBan(context, actor, { userId, type, reason });
        return {};
      }),
    moderatorVerifyUser: (_parent, { input }: Args, context) =>
      envelope(context.logger, async () => {
        const actor = requireRole(context, ...STAFF);
        const { userId, decision, banType, reason } = verifyInput.parse(input);
        if (decision === 'ban') await setBan(context, actor, { userId, type: banType, reason });
        else await verifyUserByModerator(context.db, actor, userId);
        return ok;
      }),
    unbanUser: (_parent, { input }: Args, context) =>
      envelope(context.logger, async () => {
        const actor = requireRole(context, ...STAFF);
        const { userId, reason } = unbanInput.parse(input);
        await setBan(context, actor, { userId, type: null, reason });
        return {};
      }),
  },
  Upload: UploadScalar as unknown as GraphQLResolverMap<IdentityContext>[string],
  User: {
    __resolveReference: (reference: { id: string }, context) =>
      findUserById(context.db, reference.id),
    ...avatarField,
  },
  // Every object that carries an avatar holds its key; clients get its URL.
  CurrentUserProfile: avatarField,
  PublicProfile: avatarField,
  Settings: avatarField,
};
