import { enqueueEvents, newEvent } from '@challenge/events';
import { AppError, type AuthUser, type Logger, type TokenIssuer } from '@challenge/kit';
import {
  deletePasswordResetRequest,
  insertPasswordResetRequest,
  insertRevokedToken,
  lockLoginFailure,
  lockPasswordResetRequests,
  raiseSessionVersion,
  saveLoginFailure,
} from '../data/auth-state.ts';
import { transactionRunner, type Database, type Transaction } from '../data/db.ts';
import {
  lockOpenChallenge,
  markChallenge,
  recordFailedAttempt,
  replaceLoginChallenge,
  type LoginChallengeRecord,
} from '../data/challenges.ts';
import {
  insertPasswordReset,
  lockPasswordReset,
  markPasswordResetUsed,
} from '../data/password-resets.ts';
import {
  findCredentialsById,
  findCredentialsByEmail,
  findCredentialsByUsername,
  findUserByEmail,
  updatePasswordHash,
  type UserRecord,
} from '../data/users.ts';
import {
  LOGIN_CHALLENGE_TTL_MS,
  MAX_FAILED_CODE_ATTEMPTS,
  PASSWORD_RESET_TTL_MS,
  REAUTH_TTL_SECONDS,
  afterFailedAttempt,
  ageVerdict,
  isLockedOut,
  assertOriginUrl,
  assertPasswordRules,
  assertPasswordsMatch,
  emailSchema,
  normalisePhoneNumber,
  parseBirthday,
} from './rules.ts';
import { sameSecret, type Secrets } from './secrets.ts';
import type { TokenState } from './token-state.ts';
import { registerUserIn } from './users.ts';

export interface AuthDeps {
  db: Database;
  tokenState: TokenState;
  logger: Logger;
  secrets: Secrets;
  issuer: TokenIssuer;
  /** The site's origin, for the links in e-mails. */
  publicOrigin: string;
  now?: () => Date;
}

/** Either proof that a person holds the inbox: the code, or the link's hash and expiry. */
export type InboxProof = { code: string } | { hash: string; expires: number };

export interface LoginOutcome {
  isVerified: boolean;
  accessToken: string | null;
  originUrl: string | null;
}

/** The account a log-in names, by username or e-mail address; null for none. */
async function findLoginCredentialsIn(db: Database, login: string) {
  if (!login.includes('@')) return findCredentialsByUsername(db, login);
  const email = emailSchema.safeParse(login);
  return email.success ? findCredentialsByEmail(db, email.data) : null;
}

/**
 * A suspended account's refusal, once the person proved who they are (password or code): it
 * tells them since when and why (staff's reason), which the log-in results carry (ADR 83).
 */
export class SuspendedAccountError extends AppError {
  constructor(readonly suspension: { type: string; reason: string | null; since: string | null }) {
    super('banned_user');
  }
}

/** A person may log in only while the account is neither banned nor being deleted. */
function assertMayLogIn(user: UserRecord): void {
  if (user.banType) {
    throw new SuspendedAccountError({
      type: user.banType,
      reason: user.banReason,
      since: user.bannedAt?.toISOString() ?? null,
    });
  }
  if (user.deletionRequestedAt) throw new AppError('account_deletion_requested');
}

export function createAuth(deps: AuthDeps) {
  const { db, tokenState, secrets, issuer, logger } = deps;
  const now = deps.now ?? (() => new Date());
  const inTransaction = transactionRunner(db);

  const issueToken = async (user: UserRecord) =>
    (await issuer.issue({ id: user.id, roles: user.roles, sessionVersion: user.sessionVersion }))
      .token;

  /**
   * The address's failures, locked for the transaction; refuses while it is locked out. Call
   * `fail` on a wrong secret: it counts one more against the address, whatever link it was for.
   */
  async function addressGuard(tx: Transaction, email: string) {
    const failures = await lockLoginFailure(tx, email);
    if (isLockedOut(failures, now())) throw new AppError('too_many_requests');
    return {
      fail: () => saveLoginFailure(tx, email, afterFailedAttempt(failures, now())),
    };
  }

  /** Mirrors a raised session version; a failed write is repaired by the next full copy. */
  async function mirrorSessions(state: Awaited<ReturnType<typeof raiseSessionVersion>>) {
    await tokenState.setSessions(state).catch((error) => {
      logger.error({ err: error, userId: state.userId }, 'session version not mirrored to Redis');
    });
  }

  /**
   * Checks the proof against the address's open challenge, in the caller's transaction. A wrong
   * code counts against the challenge and against the address (across links); at either limit
   * even the right code is refused.
   */
  async function checkProof(
    tx: Transaction,
    email: string,
    proof: InboxProof,
  ): Promise<LoginChallengeRecord> {
    const guard = await addressGuard(tx, email);
    const challenge = await lockOpenChallenge(tx, email);
    if (!challenge) throw new AppError('invalid_credentials');
    if (challenge.failedAttempts >= MAX_FAILED_CODE_ATTEMPTS)
      throw new AppError('too_many_requests');
    const matches =
      'code' in proof
        ? sameSecret(challenge.codeHash, secrets.keyed(proof.code.trim()))
        : sameSecret(challenge.linkHash, secrets.keyed(proof.hash)) &&
          proof.expires === Math.floor(challenge.expiresAt.getTime() / 1000);
    if (!matches) {
      await recordFailedAttempt(tx, challenge.id);
      await guard.fail();
      throw new AppError('invalid_credentials');
    }
    if (challenge.expiresAt <= now()) throw new AppError('expired_credentials');
    return challenge;
  }

  /**
   * Runs `work` and commits even when it throws an AppError, so that a failed attempt is
   * counted; the error then reaches the caller.
   */
  async function countingAttempts<T>(work: (tx: Transaction) => Promise<T>): Promise<T> {
    const outcome = await inTransaction(async (tx) => {
      try {
        return { value: await work(tx) };
      } catch (error) {
        if (error instanceof AppError) return { error };
        throw error;
      }
    });
    if ('error' in outcome) throw outcome.error;
    return outcome.value;
  }

  return {
    /** Same answer whether or not the address has an account: no enumeration. */
    async requestLoginLink(input: {
      email: string;
      originUrl: string;
    }): Promise<{ email: string }> {
      const email = emailSchema.parse(input.email);
      assertOriginUrl(input.originUrl);
      const code = secrets.newCode();
      const linkSecret = secrets.newToken();
      const expiresAt = new Date(now().getTime() + LOGIN_CHALLENGE_TTL_MS);
      await inTransaction(async (tx) => {
        const user = await findUserByEmail(tx, email);
        const purpose = user ? 'login' : 'signup';
        await replaceLoginChallenge(tx, {
          email,
          purpose,
          codeHash: secrets.keyed(code),
          linkHash: secrets.keyed(linkSecret),
          originUrl: input.originUrl,
          expiresAt,
        });
        const expires = Math.floor(expiresAt.getTime() / 1000);
        const link = new URL('/login/magic-link/verify', deps.publicOrigin);
        link.search = new URLSearchParams({
          email,
          expires: String(expires),
          hash: linkSecret,
        }).toString();
        await enqueueEvents(tx, [
          newEvent('LoginLinkRequested', {
            aggregateId: email,
            actorId: user?.id ?? null,
            data: {
              email,
              locale: user?.locale === 'nl' ? 'nl' : 'en',
              purpose,
              link: link.toString(),
              code,
              expiresAt: expiresAt.toISOString(),
            },
          }),
        ]);
      });
      return { email };
    },

    /**
     * Link or code: an existing account is logged in; an unknown address is marked verified
     * for sign-up and told so (isVerified false), and the complete-account form follows.
     */
    verifyInbox(input: { email: string } & InboxProof): Promise<LoginOutcome> {
      const email = emailSchema.parse(input.email);
      return countingAttempts(async (tx) => {
        const challenge = await checkProof(tx, email, input);
        const user = await findUserByEmail(tx, email);
        if (!user) {
          await markChallenge(tx, challenge.id, { verifiedAt: now() });
          return { isVerified: false, accessToken: null, originUrl: challenge.originUrl };
        }
        assertMayLogIn(user);
        await markChallenge(tx, challenge.id, { consumedAt: now() });
        return {
          isVerified: true,
          accessToken: await issueToken(user),
          originUrl: challenge.originUrl,
        };
      });
    },

    /** Completes a sign-up started by link or code: the account form of spec section 5. */
    async verifyUser(input: {
      email: string;
      proof: InboxProof;
      username: string;
      password: string;
      repeatPassword: string;
      birthday: string;
      phoneNumber?: string | null;
      acceptTerms: boolean;
    }): Promise<{ accessToken: string }> {
      const email = emailSchema.parse(input.email);
      assertPasswordRules(input.password);
      assertPasswordsMatch(input.password, input.repeatPassword);
      const birthday = parseBirthday(input.birthday, now());
      const { eighteenPlusContent } = ageVerdict(birthday, now());
      if (!input.acceptTerms)
        throw new AppError('invalid_user_input', 'Please accept the terms and conditions');
      const phoneNumber = input.phoneNumber ? normalisePhoneNumber(input.phoneNumber) : null;
      const passwordHash = await secrets.hashPassword(input.password);
      const user = await countingAttempts(async (tx) => {
        const challenge = await checkProof(tx, email, input.proof);
        if (challenge.purpose !== 'signup') throw new AppError('invalid_credentials');
        const created = await registerUserIn(
          tx,
          { email, username: input.username },
          { passwordHash, birthday, phoneNumber, eighteenPlusContent, termsAcceptedAt: now() },
        );
        await markChallenge(tx, challenge.id, { consumedAt: now() });
        return created;
      });
      return { accessToken: await issueToken(user) };
    },

    /**
     * `username` may be the account's e-mail address too: a username never holds an "@"
     * (usernameSchema), so the two cannot be mistaken for each other.
     */
    async login(input: { username: string; password: string }): Promise<{ accessToken: string }> {
      const user = await findLoginCredentialsIn(db, input.username);
      // Unknown user and wrong password answer alike, after the same amount of hashing work.
      if (!(await secrets.verifyPassword(user?.passwordHash ?? null, input.password)) || !user) {
        throw new AppError('invalid_credentials');
      }
      assertMayLogIn(user);
      return { accessToken: await issueToken(user) };
    },

    /** The token is refused from now on; stored first, so a lost Redis cannot bring it back. */
    async logout(user: AuthUser): Promise<void> {
      const token = {
        tokenId: user.tokenId,
        userId: user.id,
        expiresAt: new Date(user.expiresAt * 1000),
      };
      await insertRevokedToken(db, token);
      await tokenState.revoke(token);
    },

    /**
     * Same answer, after the same work, whether or not the address has an account: the request is
     * stored and carried out afterwards (processPasswordResetRequests).
     */
    async requestForgotPasswordLink(input: { email: string }): Promise<void> {
      const email = emailSchema.parse(input.email);
      await insertPasswordResetRequest(db, email);
    },

    /**
     * Carries out waiting forgot-password requests: a reset and its mail for an account that is
     * not banned, nothing for any other address. Returns how many requests it handled.
     */
    async processPasswordResetRequests(batch = 20): Promise<number> {
      return inTransaction(async (tx) => {
        const requests = await lockPasswordResetRequests(tx, batch);
        for (const request of requests) {
          await deletePasswordResetRequest(tx, request.id);
          const user = await findUserByEmail(tx, request.email);
          if (!user || user.banType) continue;
          const token = secrets.newToken();
          const expiresAt = new Date(now().getTime() + PASSWORD_RESET_TTL_MS);
          await insertPasswordReset(tx, {
            userId: user.id,
            tokenHash: secrets.keyed(token),
            expiresAt,
          });
          const link = new URL('/login/recover/reset', deps.publicOrigin);
          link.search = new URLSearchParams({ token }).toString();
          await enqueueEvents(tx, [
            newEvent('PasswordResetRequested', {
              aggregateId: user.id,
              actorId: user.id,
              data: {
                email: user.email,
                locale: user.locale === 'nl' ? 'nl' : 'en',
                username: user.username,
                link: link.toString(),
                expiresAt: expiresAt.toISOString(),
              },
            }),
          ]);
        }
        return requests.length;
      });
    },

    /** Single use; every session of the account ends, since someone else may have had it. */
    async resetForgottenPassword(input: {
      token: string;
      password: string;
      repeatPassword: string;
    }): Promise<void> {
      assertPasswordRules(input.password);
      assertPasswordsMatch(input.password, input.repeatPassword);
      const passwordHash = await secrets.hashPassword(input.password);
      const sessions = await inTransaction(async (tx) => {
        const reset = await lockPasswordReset(tx, secrets.keyed(input.token));
        if (!reset || reset.usedAt) throw new AppError('invalid_credentials');
        if (reset.expiresAt <= now()) throw new AppError('expired_credentials');
        await updatePasswordHash(tx, reset.userId, passwordHash);
        await markPasswordResetUsed(tx, reset.id);
        return raiseSessionVersion(tx, reset.userId, null);
      });
      await mirrorSessions(sessions);
    },

    /**
     * With the current password; every other session of the account ends, the one that asks
     * stays logged in. Wrong current passwords count against the address like wrong codes.
     */
    async changePassword(
      viewer: AuthUser,
      input: { currentPassword: string; password: string; repeatPassword: string },
    ): Promise<void> {
      const user = await findCredentialsById(db, viewer.id);
      if (!user) throw new AppError('authorized_user_not_found');
      await confirmPassword(user, input.currentPassword, 'The current password is not correct.');
      assertPasswordRules(input.password);
      assertPasswordsMatch(input.password, input.repeatPassword);
      const passwordHash = await secrets.hashPassword(input.password);
      const sessions = await inTransaction(async (tx) => {
        await updatePasswordHash(tx, user.id, passwordHash);
        return raiseSessionVersion(tx, user.id, viewer.tokenId);
      });
      await mirrorSessions(sessions);
    },

    /**
     * Proof, for `purpose`, that the person of this session just proved to be the account holder:
     * by the password, or by a fresh code sent to the account's address (requestLoginLink). Other
     * services verify it with the public key (ADR 21).
     */
    async reauthenticate(
      viewer: AuthUser,
      input: { purpose: string; password?: string | null; code?: string | null },
    ): Promise<{ proof: string; expiresAt: string }> {
      const user = await findCredentialsById(db, viewer.id);
      if (!user) throw new AppError('authorized_user_not_found');
      assertMayLogIn(user);
      if (input.password) {
        await confirmPassword(user, input.password, 'The password is not correct.');
      } else if (input.code) {
        await countingAttempts(async (tx) => {
          const challenge = await checkProof(tx, user.email, { code: input.code! });
          if (challenge.purpose !== 'login') throw new AppError('invalid_credentials');
          await markChallenge(tx, challenge.id, { consumedAt: now() });
        });
      } else {
        throw new AppError('invalid_input', 'Give your password or the code sent to you.');
      }
      const issued = await issuer.issueReauth({
        userId: user.id,
        sessionId: viewer.tokenId,
        purpose: input.purpose,
        ttlSeconds: REAUTH_TTL_SECONDS,
      });
      return { proof: issued.token, expiresAt: new Date(issued.expiresAt * 1000).toISOString() };
    },
  };

  /** Checks a password of a logged-in account; a wrong one counts against its address. */
  async function confirmPassword(
    user: UserRecord & { passwordHash: string | null },
    password: string,
    message: string,
  ): Promise<void> {
    await countingAttempts(async (tx) => {
      const guard = await addressGuard(tx, user.email);
      if (!(await secrets.verifyPassword(user.passwordHash, password))) {
        await guard.fail();
        throw new AppError('invalid_credentials', message);
      }
    });
  }
}

export type Auth = ReturnType<typeof createAuth>;
