import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { TOPICS, type EventData } from '@challenge/events';
import { authStateKeys, keyIdOf } from '@challenge/kit';
import {
  deleteTopics,
  eventually,
  graphql,
  readTopic,
  startTestService,
  testIdentityConfig,
  testKeys,
  uniqueTopicPrefix,
  type TestService,
} from '@challenge/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type IdentityApp } from '../src/app.ts';
import { seedUser } from '../src/seed.ts';

/**
 * Issue 10, points 7, 8, 9 and 11: codes that cannot be guessed slowly, password changes that
 * end the other sessions, re-authentication, bans and revocations that survive Redis, and a
 * forgot-password answer that does not tell which addresses exist.
 */
const STATUS = 'status { success identifier message }';
const REQUEST_LINK = `mutation($input: RequestLoginLinkInput!) { requestLoginLink(input: $input) { email ${STATUS} } }`;
const VERIFY_CODE = `mutation($input: VerifyLoginCodeInput!) { verifyLoginCode(input: $input) { isVerified accessToken ${STATUS} } }`;
const VERIFY_USER = `mutation($input: VerifyUserInput!) { verifyUser(input: $input) { accessToken ${STATUS} } }`;
const LOGIN = `mutation($input: LoginInput!) { login(input: $input) { accessToken ${STATUS} } }`;
const LOGOUT = `mutation { logout { ${STATUS} } }`;
const FORGOT = `mutation($input: RequestForgotPasswordLinkInput!) { requestForgotPasswordLink(input: $input) { ${STATUS} } }`;
const RESET = `mutation($input: ResetForgottenPasswordInput!) { resetForgottenPassword(input: $input) { ${STATUS} } }`;
const CHANGE = `mutation($input: ChangePasswordInput!) { changePassword(input: $input) { ${STATUS} } }`;
const REAUTH = `mutation($input: ReauthenticateInput!) { reauthenticate(input: $input) { proof expiresAt ${STATUS} } }`;
const BAN = `mutation($input: BanUserInput!) { banUser(input: $input) { ${STATUS} } }`;
const UNBAN = `mutation($input: UnbanUserInput!) { unbanUser(input: $input) { ${STATUS} } }`;
const ME = `{ getCurrentUserProfile { ${STATUS} profile { id } } }`;
const PASSWORD = 'Sturdy-Pass-42';

const email = () => `acc-${randomUUID().slice(0, 8)}@example.test`;

describe('identity: access that cannot be guessed', () => {
  const topicPrefix = uniqueTopicPrefix();
  /** This file's own token-state keys, so that "flushing Redis" touches no other test. */
  const authStatePrefix = `test:${randomUUID()}:`;
  let identity: TestService<IdentityApp>;
  const call = (query: string, input?: unknown, token?: string) =>
    graphql(
      identity.url,
      query,
      input === undefined ? {} : { input },
      token ? { token } : undefined,
    );

  async function commandFor<T extends 'LoginLinkRequested' | 'PasswordResetRequested'>(
    type: T,
    address: string,
    count = 1,
  ): Promise<EventData<T>> {
    const matching = (messages: { value: Buffer | null }[]) =>
      messages
        .map((message) => JSON.parse(message.value!.toString()))
        .filter((event) => event.type === type && event.data.email === address);
    const messages = await readTopic(
      topicPrefix,
      TOPICS.notificationCommands,
      (all) => matching(all).length >= count,
    );
    return matching(messages).at(-1)!.data;
  }

  /** Requests a link for the address and returns its code (the `count`th mail to it). */
  async function newCode(address: string, count: number): Promise<string> {
    await call(REQUEST_LINK, { email: address, originUrl: '/' });
    return (await commandFor('LoginLinkRequested', address, count)).code;
  }

  /** A signed-up account with a password; returns its id, username and a fresh token. */
  async function account(roles?: ('user' | 'moderator' | 'admin')[]) {
    const address = email();
    const user = await seedUser(identity.app.db, { email: address, roles });
    const passwordHash = await import('@node-rs/argon2').then((argon) => argon.hash(PASSWORD));
    await identity.app.db.user.update({ where: { id: user.id }, data: { passwordHash } });
    const login = async () =>
      (await call(LOGIN, { username: user.username, password: PASSWORD })).data!.login
        .accessToken as string;
    return { ...user, login };
  }

  const meStatus = async (token: string) => {
    const response = await call(ME, undefined, token);
    return response.httpStatus === 200
      ? 'ok'
      : `${response.httpStatus} ${response.errors?.[0]?.extensions?.identifier}`;
  };

  beforeAll(async () => {
    identity = await startTestService(
      'identity',
      async (runtime, url) =>
        buildApp(runtime, {
          ...(await testIdentityConfig(url)),
          tokenStateSync: { checkIntervalMs: 200, fullIntervalMs: 60_000 },
          // Carried out by the test itself (processPasswordResetRequests), so that no background
          // work disturbs the forgot-password timing; auth.integration covers the timer.
          resetRequestIntervalMs: 3_600_000,
        }),
      { topicPrefix, authStatePrefix },
    );
  });
  afterAll(async () => {
    await identity?.stop();
    await deleteTopics(topicPrefix);
    const redis = identity?.runtime.redis;
    if (redis) {
      const keys = await redis.keys(`${authStatePrefix}*`).catch(() => []);
      if (keys.length) await redis.del(...keys).catch(() => {});
    }
  });

  describe('point 7: codes are not guessed slowly', () => {
    it('counts wrong codes per address across new links: after ten even the right code of a new link is refused', async () => {
      const user = await seedUser(identity.app.db);
      for (let link = 1; link <= 2; link += 1) {
        const code = await newCode(user.email, link);
        const wrong = code === '000000' ? '111111' : '000000';
        for (let attempt = 1; attempt <= 5; attempt += 1) {
          const response = await call(VERIFY_CODE, { email: user.email, code: wrong });
          expect(response.data!.verifyLoginCode.status.identifier).toBe('invalid_credentials');
        }
      }
      const right = await newCode(user.email, 3);
      const locked = await call(VERIFY_CODE, { email: user.email, code: right });
      expect(locked.data!.verifyLoginCode).toMatchObject({
        accessToken: null,
        status: { identifier: 'too_many_requests' },
      });

      // The lockout is a period: once it is over, the right code works.
      await identity.app.db.loginFailure.update({
        where: { email: user.email },
        data: { lockedUntil: new Date(Date.now() - 1000) },
      });
      const after = await call(VERIFY_CODE, { email: user.email, code: right });
      expect(after.data!.verifyLoginCode.status.success).toBe(true);
    });

    it('limits verifyUser (sign-up) per address the same way', async () => {
      const address = email();
      const form = (code: string) => ({
        email: address,
        code,
        username: `su_${randomUUID().slice(0, 8)}`,
        password: PASSWORD,
        repeatPassword: PASSWORD,
        birthday: '1990-01-01',
        acceptTerms: true,
      });
      for (let link = 1; link <= 2; link += 1) {
        const code = await newCode(address, link);
        const wrong = code === '000000' ? '111111' : '000000';
        for (let attempt = 1; attempt <= 5; attempt += 1) {
          const response = await call(VERIFY_USER, form(wrong));
          expect(response.data!.verifyUser.status.identifier).toBe('invalid_credentials');
        }
      }
      const right = await newCode(address, 3);
      const locked = await call(VERIFY_USER, form(right));
      expect(locked.data!.verifyUser).toMatchObject({
        accessToken: null,
        status: { identifier: 'too_many_requests' },
      });
      expect(await identity.app.db.user.count({ where: { email: address } })).toBe(0);
    });
  });

  describe('point 8: a password change ends the other sessions', () => {
    it('changePassword keeps the session that asks and refuses every other token', async () => {
      const user = await account();
      const current = await user.login();
      const other = await user.login();
      const changed = await call(
        CHANGE,
        { currentPassword: PASSWORD, password: 'Next-Pass-88', repeatPassword: 'Next-Pass-88' },
        current,
      );
      expect(changed.data!.changePassword.status.success).toBe(true);
      expect(await meStatus(current)).toBe('ok');
      expect(await meStatus(other)).toBe('401 unauthorized');
      const fresh = (await call(LOGIN, { username: user.username, password: 'Next-Pass-88' })).data!
        .login.accessToken;
      expect(await meStatus(fresh)).toBe('ok');
    });

    it('resetForgottenPassword refuses every earlier token at once, not only those of earlier seconds', async () => {
      const user = await account();
      const before = await user.login();
      await call(FORGOT, { email: user.email });
      await identity.app.auth.processPasswordResetRequests();
      const { link } = await commandFor('PasswordResetRequested', user.email);
      const token = new URL(link).searchParams.get('token')!;
      const stillBefore = await user.login();
      const reset = await call(RESET, {
        token,
        password: 'Fresh-Pass-77',
        repeatPassword: 'Fresh-Pass-77',
      });
      expect(reset.data!.resetForgottenPassword.status.success).toBe(true);
      expect(await meStatus(before)).toBe('401 unauthorized');
      expect(await meStatus(stillBefore)).toBe('401 unauthorized');
      const after = (await call(LOGIN, { username: user.username, password: 'Fresh-Pass-77' }))
        .data!.login.accessToken;
      expect(await meStatus(after)).toBe('ok');
    });

    it('reauthenticate: a proof for this session by password, or by a fresh code without one', async () => {
      const user = await account();
      const token = await user.login();
      const wrong = await call(
        REAUTH,
        { purpose: 'payment_profile', password: 'Wrong-Pass-1' },
        token,
      );
      expect(wrong.data!.reauthenticate).toMatchObject({
        proof: null,
        status: { identifier: 'invalid_credentials' },
      });
      const ok = await call(REAUTH, { purpose: 'payment_profile', password: PASSWORD }, token);
      const proof = ok.data!.reauthenticate.proof as string;
      const session = await identity.runtime.verifier.verify(token);
      await expect(
        identity.runtime.verifier.verifyReauth(proof, 'payment_profile'),
      ).resolves.toEqual({
        userId: user.id,
        sessionId: session.tokenId,
        purpose: 'payment_profile',
      });

      const passwordless = await seedUser(identity.app.db);
      const code = await newCode(passwordless.email, 1);
      const login = await call(VERIFY_CODE, { email: passwordless.email, code });
      const passwordlessToken = login.data!.verifyLoginCode.accessToken as string;
      const fresh = await newCode(passwordless.email, 2);
      const byCode = await call(
        REAUTH,
        { purpose: 'payment_profile', code: fresh },
        passwordlessToken,
      );
      expect(byCode.data!.reauthenticate.status.success).toBe(true);
      expect(
        (await call(REAUTH, { purpose: 'payment_profile', code: fresh }, passwordlessToken)).data!
          .reauthenticate.status.identifier,
      ).toBe('invalid_credentials');
      expect(
        (await call(REAUTH, { purpose: 'payment_profile', password: PASSWORD })).data!
          .reauthenticate.status.identifier,
      ).toBe('unauthorized');
    });
  });

  describe('point 9: bans and revocations', () => {
    it('moderators cannot ban or unban admins; admins can', async () => {
      const admin = await account(['user', 'admin']);
      const otherAdmin = await account(['user', 'admin']);
      const moderator = await account(['user', 'moderator']);
      const moderatorToken = await moderator.login();
      const refused = await call(BAN, { userId: admin.id, type: 'hard' }, moderatorToken);
      expect(refused.data!.banUser.status.identifier).toBe('access_denied');
      expect(await meStatus(await admin.login())).toBe('ok');

      const adminToken = await otherAdmin.login();
      const banned = await call(BAN, { userId: admin.id, type: 'soft' }, adminToken);
      expect(banned.data!.banUser.status.success).toBe(true);
      const unban = await call(
        UNBAN,
        { userId: admin.id, reason: 'Appeal accepted.' },
        moderatorToken,
      );
      expect(unban.data!.unbanUser.status.identifier).toBe('access_denied');
      expect(
        (await call(UNBAN, { userId: admin.id, reason: 'Appeal accepted.' }, adminToken)).data!
          .unbanUser.status.success,
      ).toBe(true);
    });

    it('a retry of a ban whose Redis mark was lost completes it instead of redundant_mutation', async () => {
      const user = await account();
      const token = await user.login();
      const moderatorToken = await (await account(['user', 'moderator'])).login();
      expect(
        (await call(BAN, { userId: user.id, type: 'hard' }, moderatorToken)).data!.banUser.status
          .success,
      ).toBe(true);
      // The mark as if its write had failed after the commit (either key layout).
      await identity.runtime.redis.del(
        authStateKeys(authStatePrefix).banned(user.id),
        authStateKeys('').banned(user.id),
      );
      const retry = await call(BAN, { userId: user.id, type: 'hard' }, moderatorToken);
      expect(retry.data!.banUser.status).toMatchObject({ success: true });
      expect(await meStatus(token)).toBe('401 banned_user');
      const again = await call(BAN, { userId: user.id, type: 'hard' }, moderatorToken);
      expect(again.data!.banUser.status.identifier).toBe('redundant_mutation');
    });

    it('a flushed Redis lifts no ban, logout or password change: refused until restored, then as before', async () => {
      const banned = await account();
      const bannedToken = await banned.login();
      const moderatorToken = await (await account(['user', 'moderator'])).login();
      await call(BAN, { userId: banned.id, type: 'hard' }, moderatorToken);
      const loggedOut = await account();
      const loggedOutToken = await loggedOut.login();
      await call(LOGOUT, undefined, loggedOutToken);
      const changer = await account();
      const staleToken = await changer.login();
      const changerToken = await changer.login();
      await call(
        CHANGE,
        { currentPassword: PASSWORD, password: 'Next-Pass-88', repeatPassword: 'Next-Pass-88' },
        changerToken,
      );
      const bystander = await account();
      const bystanderToken = await bystander.login();
      expect(await meStatus(bannedToken)).toBe('401 banned_user');
      expect(await meStatus(loggedOutToken)).toBe('401 unauthorized');
      expect(await meStatus(staleToken)).toBe('401 unauthorized');

      // FLUSHALL, for this file's keys only (and the unprefixed ones of these users).
      const redis = identity.runtime.redis;
      const ours = await redis.keys(`${authStatePrefix}*`);
      const loggedOutSession = await identity.runtime.verifier.verify(loggedOutToken);
      await redis.del(
        ...ours,
        authStateKeys('').banned(banned.id),
        authStateKeys('').revoked(loggedOutSession.tokenId),
        `auth:valid-after:${changer.id}`,
      );

      // Never a pass while the state is missing: each answer is a refusal of some kind.
      for (const token of [bannedToken, loggedOutToken, staleToken]) {
        expect(await meStatus(token)).not.toBe('ok');
      }
      await eventually(async () => expect(await meStatus(bystanderToken)).toBe('ok'));
      expect(await meStatus(bannedToken)).toBe('401 banned_user');
      expect(await meStatus(loggedOutToken)).toBe('401 unauthorized');
      expect(await meStatus(staleToken)).toBe('401 unauthorized');
      expect(await meStatus(changerToken)).toBe('ok');
    });
  });

  describe('point 12: signing keys', () => {
    it('signs with a kid, and refuses to start with a key the verifiers do not list', async () => {
      const token = await (await account()).login();
      const [header] = token.split('.');
      const { kid } = JSON.parse(Buffer.from(header!, 'base64url').toString()) as { kid: string };
      expect(kid).toBe(await keyIdOf((await testKeys()).publicKeyPem));

      const stranger = generateKeyPairSync('rsa', {
        modulusLength: 2048,
        privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
        publicKeyEncoding: { type: 'spki', format: 'pem' },
      });
      await expect(
        buildApp(identity.runtime, {
          ...(await testIdentityConfig(identity.database.url)),
          jwtPrivateKey: stranger.privateKey,
        }),
      ).rejects.toThrow(/does not match any key of JWT_PUBLIC_KEY/);
    });
  });

  describe('point 11: forgot-password does not tell which addresses exist', () => {
    it('answers known and unknown addresses after the same work; only the job tells them apart', async () => {
      const known = await account();
      const unknown = email();
      const db = identity.app.db;
      // The job of other tests may run meanwhile: compare what the answer itself left behind.
      const requestsFor = (address: string) =>
        db.passwordResetRequest.count({ where: { email: address } });
      const resetsOf = () => db.passwordReset.count({ where: { userId: known.id } });
      const resetsBefore = await resetsOf();
      for (const address of [known.email, unknown]) {
        const response = await call(FORGOT, { email: address });
        expect(response.data!.requestForgotPasswordLink.status.success).toBe(true);
      }
      // The same work for both before the answer: one stored request each, nothing about the
      // account (no reset, no mail command) until the job runs. Timing follows from the same
      // work; a timed assertion would only measure the machine's load.
      expect(await requestsFor(known.email)).toBe(1);
      expect(await requestsFor(unknown)).toBe(1);
      expect(await resetsOf()).toBe(resetsBefore);

      while ((await identity.app.auth.processPasswordResetRequests()) > 0);
      expect(await requestsFor(known.email)).toBe(0);
      expect(await requestsFor(unknown)).toBe(0);
      expect(await resetsOf()).toBe(resetsBefore + 1);
      // The known address gets its mail, the unknown one none.
      const mail = await commandFor('PasswordResetRequested', known.email);
      expect(mail.username).toBe(known.username);
    });
  });
});
