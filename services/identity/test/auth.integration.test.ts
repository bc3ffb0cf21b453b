import { randomUUID } from 'node:crypto';
import { TOPICS, type EventData } from '@challenge/events';
import {
  deleteTopics,
  graphql,
  readTopic,
  startTestService,
  testIdentityConfig,
  uniqueTopicPrefix,
  type TestService,
} from '@challenge/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type IdentityApp } from '../src/app.ts';
import { seedUser } from '../src/seed.ts';

const STATUS = 'status { success identifier message }';
const REQUEST_LINK = `mutation($input: RequestLoginLinkInput!) { requestLoginLink(input: $input) { email ${STATUS} } }`;
const VERIFY_CODE = `mutation($input: VerifyLoginCodeInput!) { verifyLoginCode(input: $input) { isVerified accessToken originUrl ${STATUS} } }`;
const VERIFY_LINK = `mutation($input: VerifyLoginLinkInput!) { verifyLoginLink(input: $input) { isVerified accessToken originUrl ${STATUS} } }`;
const VERIFY_USER = `mutation($input: VerifyUserInput!) { verifyUser(input: $input) { accessToken ${STATUS} } }`;
const LOGIN = `mutation($input: LoginInput!) { login(input: $input) { accessToken ${STATUS} } }`;
const LOGOUT = `mutation { logout { ${STATUS} } }`;
const FORGOT = `mutation($input: RequestForgotPasswordLinkInput!) { requestForgotPasswordLink(input: $input) { ${STATUS} } }`;
const RESET = `mutation($input: ResetForgottenPasswordInput!) { resetForgottenPassword(input: $input) { ${STATUS} } }`;
const CHANGE = `mutation($input: ChangePasswordInput!) { changePassword(input: $input) { ${STATUS} } }`;
const BAN = `mutation($input: BanUserInput!) { banUser(input: $input) { ${STATUS} } }`;
const UNBAN = `mutation($input: UnbanUserInput!) { unbanUser(input: $input) { ${STATUS} } }`;
const ME = `{ getCurrentUserProfile { ${STATUS} profile { id username } } }`;
const PASSWORD = 'Sturdy-Pass-42';

const email = () => `person-${randomUUID().slice(0, 8)}@example.test`;
const yearsAgo = (years: number, days = 0) => {
  const date = new Date();
  date.setUTCFullYear(date.getUTCFullYear() - years);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
};

describe('identity: log-in, sign-up and passwords', () => {
  const topicPrefix = uniqueTopicPrefix();
  let identity: TestService<IdentityApp>;
  const call = (query: string, input?: unknown, token?: string) =>
    graphql(
      identity.url,
      query,
      input === undefined ? {} : { input },
      token ? { token } : undefined,
    );

  /** The newest e-mail command for an address, as notification would receive it. */
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

  async function loginByCode(address: string): Promise<string> {
    await call(REQUEST_LINK, { email: address, originUrl: '/wallet' });
    const { code } = await commandFor('LoginLinkRequested', address);
    const { data } = await call(VERIFY_CODE, { email: address, code });
    return data!.verifyLoginCode.accessToken;
  }

  async function signUp(address: string, form: Record<string, unknown> = {}) {
    await call(REQUEST_LINK, { email: address, originUrl: '/challenge/create/step-1' });
    const { code } = await commandFor('LoginLinkRequested', address);
    return call(VERIFY_USER, {
      email: address,
      code,
      username: `u_${randomUUID().slice(0, 8)}`,
      password: PASSWORD,
      repeatPassword: PASSWORD,
      birthday: yearsAgo(30),
      acceptTerms: true,
      ...form,
    });
  }

  beforeAll(async () => {
    identity = await startTestService(
      'identity',
      async (runtime, url) => buildApp(runtime, await testIdentityConfig(url)),
      {
        topicPrefix,
      },
    );
  });
  afterAll(async () => {
    await identity?.stop();
    await deleteTopics(topicPrefix);
  });

  describe('magic link and code', () => {
    it('answers a known and an unknown address identically, and mails a login or a sign-up', async () => {
      const known = await seedUser(identity.app.db, { locale: 'nl' });
      const unknown = email();
      const a = await call(REQUEST_LINK, { email: known.email, originUrl: '/wallet' });
      const b = await call(REQUEST_LINK, { email: unknown, originUrl: '/wallet' });
      expect(a.data!.requestLoginLink).toEqual({
        email: known.email,
        status: { success: true, identifier: 'ok', message: 'OK' },
      });
      expect(b.data!.requestLoginLink).toEqual({
        email: unknown,
        status: a.data!.requestLoginLink.status,
      });

      const login = await commandFor('LoginLinkRequested', known.email);
      expect(login).toMatchObject({
        purpose: 'login',
        locale: 'nl',
        code: expect.stringMatching(/^\d{6}$/),
      });
      expect(new Date(login.expiresAt).getTime() - Date.now()).toBeGreaterThan(14 * 60 * 1000);
      expect(new Date(login.expiresAt).getTime() - Date.now()).toBeLessThanOrEqual(15 * 60 * 1000);
      expect((await commandFor('LoginLinkRequested', unknown)).purpose).toBe('signup');
    });

    it('logs in by code once; the code is single-use and stored hashed', async () => {
      const user = await seedUser(identity.app.db);
      await call(REQUEST_LINK, { email: user.email, originUrl: '/wallet' });
      const { code } = await commandFor('LoginLinkRequested', user.email);
      const stored = await identity.app.db.loginChallenge.findFirstOrThrow({
        where: { email: user.email },
      });
      expect(JSON.stringify(stored)).not.toContain(code);

      const first = await call(VERIFY_CODE, { email: user.email, code });
      expect(first.data!.verifyLoginCode).toMatchObject({
        isVerified: true,
        originUrl: '/wallet',
        status: { success: true },
      });
      const me = await call(ME, undefined, first.data!.verifyLoginCode.accessToken);
      expect(me.data!.getCurrentUserProfile.profile.id).toBe(user.id);

      const again = await call(VERIFY_CODE, { email: user.email, code });
      expect(again.data!.verifyLoginCode.status.identifier).toBe('invalid_credentials');
    });

    it('logs in by the link, and only with its exact expiry', async () => {
      const user = await seedUser(identity.app.db);
      await call(REQUEST_LINK, { email: user.email, originUrl: '/' });
      const link = new URL((await commandFor('LoginLinkRequested', user.email)).link);
      expect(link.origin + link.pathname).toBe('https://challenge.test/login/magic-link/verify');
      const hash = link.searchParams.get('hash')!;
      const expires = Number(link.searchParams.get('expires'));

      const tampered = await call(VERIFY_LINK, {
        email: user.email,
        hash,
        expires: expires + 3600,
      });
      expect(tampered.data!.verifyLoginLink.status.identifier).toBe('invalid_credentials');
      const ok = await call(VERIFY_LINK, { email: user.email, hash, expires });
      expect(ok.data!.verifyLoginLink).toMatchObject({
        isVerified: true,
        accessToken: expect.any(String),
      });
    });

    it('refuses the 6th attempt after five wrong codes, even when it is right', async () => {
      const user = await seedUser(identity.app.db);
      await call(REQUEST_LINK, { email: user.email, originUrl: '/' });
      const { code } = await commandFor('LoginLinkRequested', user.email);
      const wrong = code === '000000' ? '111111' : '000000';
      for (let attempt = 1; attempt <= 5; attempt += 1) {
        const response = await call(VERIFY_CODE, { email: user.email, code: wrong });
        expect(response.data!.verifyLoginCode.status.identifier).toBe('invalid_credentials');
      }
      const right = await call(VERIFY_CODE, { email: user.email, code });
      expect(right.data!.verifyLoginCode).toMatchObject({
        accessToken: null,
        status: { identifier: 'too_many_requests' },
      });
    });

    it('answers expired_credentials once the 15 minutes are over', async () => {
      const user = await seedUser(identity.app.db);
      await call(REQUEST_LINK, { email: user.email, originUrl: '/' });
      const { code } = await commandFor('LoginLinkRequested', user.email);
      await identity.app.db.loginChallenge.updateMany({
        where: { email: user.email },
        data: { expiresAt: new Date(Date.now() - 1000) },
      });
      const response = await call(VERIFY_CODE, { email: user.email, code });
      expect(response.data!.verifyLoginCode.status.identifier).toBe('expired_credentials');
    });

    it('refuses an origin URL that is not a path of this site', async () => {
      for (const originUrl of ['https://evil.example/', '//evil.example/wallet']) {
        const response = await call(REQUEST_LINK, { email: email(), originUrl });
        expect(response.data!.requestLoginLink.status.identifier).toBe('invalid_origin_url');
      }
    });
  });

  describe('sign-up (complete account)', () => {
    it('by link: verification says not verified, then verifyUser creates the account', async () => {
      const address = email();
      await call(REQUEST_LINK, { email: address, originUrl: '/challenge/create/step-2' });
      const link = new URL((await commandFor('LoginLinkRequested', address)).link);
      const proof = {
        hash: link.searchParams.get('hash')!,
        expires: Number(link.searchParams.get('expires')),
      };

      const verified = await call(VERIFY_LINK, { email: address, ...proof });
      expect(verified.data!.verifyLoginLink).toMatchObject({
        isVerified: false,
        accessToken: null,
        status: { success: true },
      });

      const username = `new_${randomUUID().slice(0, 6)}`;
      const created = await call(VERIFY_USER, {
        email: address,
        ...proof,
        username,
        password: PASSWORD,
        repeatPassword: PASSWORD,
        birthday: yearsAgo(17),
        phoneNumber: '+31 6 1234 5678',
        eighteenPlusContent: true,
        acceptTerms: true,
      });
      expect(created.data!.verifyUser.status).toMatchObject({ success: true });
      const me = await call(ME, undefined, created.data!.verifyUser.accessToken);
      expect(me.data!.getCurrentUserProfile.profile.username).toBe(username);
      const row = await identity.app.db.user.findUniqueOrThrow({ where: { email: address } });
      expect(row).toMatchObject({ eighteenPlusContent: false, phoneNumber: '+31612345678' });
      expect(row.passwordHash).toMatch(/^\$argon2id\$/);
    });

    it('by code, with the adult flag derived from an 18-year-old birthday (whatever the client sends)', async () => {
      const address = email();
      const response = await signUp(address, {
        birthday: yearsAgo(18),
        eighteenPlusContent: false,
      });
      expect(response.data!.verifyUser.status.success).toBe(true);
      const row = await identity.app.db.user.findUniqueOrThrow({ where: { email: address } });
      expect(row.eighteenPlusContent).toBe(true);
    });

    it('refuses log-in while the account deletion is pending: account_deletion_requested', async () => {
      const address = email();
      const username = `del_${randomUUID().slice(0, 6)}`;
      await signUp(address, { username });
      const token = (await call(LOGIN, { username, password: PASSWORD })).data!.login.accessToken;
      const deleted = await call(`mutation { deleteUser { ${STATUS} } }`, undefined, token);
      expect(deleted.data!.deleteUser.status.success).toBe(true);
      const login = await call(LOGIN, { username, password: PASSWORD });
      expect(login.data!.login).toMatchObject({
        accessToken: null,
        status: { identifier: 'account_deletion_requested' },
      });
    });

    it.each([
      ['a weak password', { password: 'weakpass', repeatPassword: 'weakpass' }, 'invalid_password'],
      ['passwords that differ', { repeatPassword: 'Sturdy-Pass-43' }, 'invalid_user_input'],
      ['15 years and 364 days', { birthday: yearsAgo(16, 1) }, 'invalid_user_input'],
      ['a birthday that does not exist', { birthday: '2001-02-29' }, 'invalid_user_input'],
      ['terms not accepted', { acceptTerms: false }, 'invalid_user_input'],
      ['an invalid phone number', { phoneNumber: '12' }, 'invalid_phone_number'],
      ['an invalid username', { username: 'x' }, 'invalid_input'],
    ])('refuses %s', async (_why, form, identifier) => {
      const response = await signUp(email(), form);
      expect(response.data!.verifyUser).toMatchObject({
        accessToken: null,
        status: { success: false, identifier },
      });
    });

    it('accepts exactly 16 and refuses a username that is taken', async () => {
      expect(
        (await signUp(email(), { birthday: yearsAgo(16) })).data!.verifyUser.status.success,
      ).toBe(true);
      const taken = await seedUser(identity.app.db);
      const response = await signUp(email(), { username: taken.username.toUpperCase() });
      expect(response.data!.verifyUser.status.identifier).toBe('no_unique_username');
    });

    it('answers expired_credentials when the code has expired', async () => {
      const address = email();
      await call(REQUEST_LINK, { email: address, originUrl: '/' });
      const { code } = await commandFor('LoginLinkRequested', address);
      await identity.app.db.loginChallenge.updateMany({
        where: { email: address },
        data: { expiresAt: new Date(Date.now() - 1) },
      });
      const response = await call(VERIFY_USER, {
        email: address,
        code,
        username: `late_${randomUUID().slice(0, 6)}`,
        password: PASSWORD,
        repeatPassword: PASSWORD,
        birthday: yearsAgo(20),
        acceptTerms: true,
      });
      expect(response.data!.verifyUser.status.identifier).toBe('expired_credentials');
    });
  });

  describe('username and password', () => {
    it('logs in, refuses wrong and unknown credentials alike, and logout revokes the token', async () => {
      const address = email();
      const username = `pw_${randomUUID().slice(0, 6)}`;
      await signUp(address, { username });
      const ok = await call(LOGIN, { username: username.toUpperCase(), password: PASSWORD });
      const token = ok.data!.login.accessToken;
      expect(token).toEqual(expect.any(String));

      const wrong = await call(LOGIN, { username, password: 'Wrong-Pass-42' });
      const unknown = await call(LOGIN, { username: 'nobody_at_all', password: PASSWORD });
      expect(wrong.data!.login).toEqual(unknown.data!.login);
      expect(wrong.data!.login.status.identifier).toBe('invalid_credentials');

      expect((await call(LOGOUT, undefined, token)).data!.logout.status.success).toBe(true);
      const reused = await call(ME, undefined, token);
      expect(reused.httpStatus).toBe(401);
      expect(reused.errors![0]!.extensions!.identifier).toBe('unauthorized');
    });

    it('takes the e-mail address in place of the username, and refuses it wrong as it refuses a username', async () => {
      const address = email();
      const username = `em_${randomUUID().slice(0, 6)}`;
      await signUp(address, { username });
      const ok = await call(LOGIN, { username: ` ${address.toUpperCase()} `, password: PASSWORD });
      expect(ok.data!.login.status.success).toBe(true);
      const token = ok.data!.login.accessToken as string;
      expect((await call(ME, undefined, token)).data!.getCurrentUserProfile.profile.username).toBe(
        username,
      );

      const wrong = await call(LOGIN, { username: address, password: 'Wrong-Pass-42' });
      const unknown = await call(LOGIN, { username: email(), password: PASSWORD });
      const malformed = await call(LOGIN, { username: 'not@an@address', password: PASSWORD });
      expect(wrong.data!.login).toEqual(unknown.data!.login);
      expect(malformed.data!.login).toEqual(unknown.data!.login);
      expect(wrong.data!.login.status.identifier).toBe('invalid_credentials');
    });

    it('resets a forgotten password once, ending every session; unknown addresses get the same answer', async () => {
      const address = email();
      const username = `rs_${randomUUID().slice(0, 6)}`;
      await signUp(address, { username });
      const oldToken = (await call(LOGIN, { username, password: PASSWORD })).data!.login
        .accessToken;

      const known = await call(FORGOT, { email: address });
      const unknown = await call(FORGOT, { email: email() });
      expect(known.data).toEqual(unknown.data);
      const { link } = await commandFor('PasswordResetRequested', address);
      const token = new URL(link).searchParams.get('token')!;

      await new Promise((resolve) => setTimeout(resolve, 1100)); // tokens of an earlier second
      const reset = await call(RESET, {
        token,
        password: 'Fresh-Pass-77',
        repeatPassword: 'Fresh-Pass-77',
      });
      expect(reset.data!.resetForgottenPassword.status.success).toBe(true);
      expect((await call(ME, undefined, oldToken)).httpStatus).toBe(401);
      expect(
        (await call(LOGIN, { username, password: 'Fresh-Pass-77' })).data!.login.status.success,
      ).toBe(true);
      expect(
        (await call(LOGIN, { username, password: PASSWORD })).data!.login.status.identifier,
      ).toBe('invalid_credentials');

      const again = await call(RESET, {
        token,
        password: 'Other-Pass-77',
        repeatPassword: 'Other-Pass-77',
      });
      expect(again.data!.resetForgottenPassword.status.identifier).toBe('invalid_credentials');
    });

    it('answers expired_credentials for a reset link older than its hour', async () => {
      const address = email();
      await signUp(address);
      await call(FORGOT, { email: address });
      const token = new URL(
        (await commandFor('PasswordResetRequested', address)).link,
      ).searchParams.get('token')!;
      await identity.app.db.passwordReset.updateMany({
        data: { expiresAt: new Date(Date.now() - 1) },
        where: { usedAt: null },
      });
      const response = await call(RESET, {
        token,
        password: 'Fresh-Pass-77',
        repeatPassword: 'Fresh-Pass-77',
      });
      expect(response.data!.resetForgottenPassword.status.identifier).toBe('expired_credentials');
    });

    it('changes the password only with the current one', async () => {
      const username = `ch_${randomUUID().slice(0, 6)}`;
      await signUp(email(), { username });
      const token = (await call(LOGIN, { username, password: PASSWORD })).data!.login.accessToken;
      const wrong = await call(
        CHANGE,
        {
          currentPassword: 'Nope-Pass-1',
          password: 'Next-Pass-88',
          repeatPassword: 'Next-Pass-88',
        },
        token,
      );
      expect(wrong.data!.changePassword.status.identifier).toBe('invalid_credentials');
      const weak = await call(
        CHANGE,
        { currentPassword: PASSWORD, password: 'short', repeatPassword: 'short' },
        token,
      );
      expect(weak.data!.changePassword.status.identifier).toBe('invalid_password');
      const ok = await call(
        CHANGE,
        { currentPassword: PASSWORD, password: 'Next-Pass-88', repeatPassword: 'Next-Pass-88' },
        token,
      );
      expect(ok.data!.changePassword.status.success).toBe(true);
      expect(
        (await call(LOGIN, { username, password: 'Next-Pass-88' })).data!.login.status.success,
      ).toBe(true);
      const anonymous = await call(CHANGE, {
        currentPassword: 'x',
        password: 'y',
        repeatPassword: 'y',
      });
      expect(anonymous.data!.changePassword.status.identifier).toBe('unauthorized');
    });
  });

  describe('bans', () => {
    /**
     * Issue 22, point 4: a suspended person who proves who they are (password or code) learns
     * that they are suspended, since when and why (staff's reason); a wrong password learns
     * nothing. An unban needs a reason too, which the audit log keeps.
     */
    it("tells a suspended person who proved who they are staff's reason, and nobody else", async () => {
      const username = `sp_${randomUUID().slice(0, 6)}`;
      const address = email();
      await signUp(address, { username });
      const user = await identity.app.db.user.findUniqueOrThrow({ where: { email: address } });
      const moderator = await seedUser(identity.app.db, { roles: ['user', 'moderator'] });
      const moderatorToken = await loginByCode(moderator.email);
      const reason = 'Threatening messages in the comments.';
      expect(
        (await call(BAN, { userId: user.id, type: 'soft', reason }, moderatorToken)).data!.banUser
          .status.success,
      ).toBe(true);

      const SUSPENSION = 'suspension { type reason since }';
      const byPassword = await call(
        `mutation($input: LoginInput!) { login(input: $input) { accessToken ${STATUS} ${SUSPENSION} } }`,
        { username, password: PASSWORD },
      );
      expect(byPassword.data!.login).toMatchObject({
        accessToken: null,
        status: { success: false, identifier: 'banned_user' },
        suspension: { type: 'soft', reason, since: expect.any(String) },
      });
      const wrong = await call(
        `mutation($input: LoginInput!) { login(input: $input) { ${STATUS} ${SUSPENSION} } }`,
        { username, password: `${PASSWORD}x` },
      );
      expect(wrong.data!.login).toMatchObject({
        status: { identifier: 'invalid_credentials' },
        suspension: null,
      });
      await call(REQUEST_LINK, { email: address, originUrl: '/' });
      const { code } = await commandFor('LoginLinkRequested', address, 2);
      const byCode = await call(
        `mutation($input: VerifyLoginCodeInput!) { verifyLoginCode(input: $input) { ${STATUS} ${SUSPENSION} } }`,
        { email: address, code },
      );
      expect(byCode.data!.verifyLoginCode).toMatchObject({
        status: { identifier: 'banned_user' },
        suspension: { type: 'soft', reason },
      });

      const UNBAN_WITH = `mutation($input: UnbanUserInput!) { unbanUser(input: $input) { ${STATUS} } }`;
      const noReason = await call(UNBAN_WITH, { userId: user.id, reason: ' ' }, moderatorToken);
      expect(noReason.data!.unbanUser.status.identifier).toBe('invalid_input');
      const unban = await call(
        UNBAN_WITH,
        { userId: user.id, reason: 'Appeal accepted.' },
        moderatorToken,
      );
      expect(unban.data!.unbanUser.status.success).toBe(true);
      const events = await readTopic(topicPrefix, TOPICS.identity, (all) =>
        all.some((m) => m.value!.toString().includes('Appeal accepted.')),
      );
      const unbanned = events
        .map((m) => JSON.parse(m.value!.toString()))
        .find((event) => event.type === 'UserUnbanned' && event.data.userId === user.id);
      expect(unbanned.data).toEqual({ userId: user.id, reason: 'Appeal accepted.' });
      expect(
        (await identity.app.db.user.findUniqueOrThrow({ where: { id: user.id } })).banReason,
      ).toBeNull();
    });

    it('a moderator bans: the old token, log-in by password and by code are refused; unban restores', async () => {
      const username = `bn_${randomUUID().slice(0, 6)}`;
      const address = email();
      await signUp(address, { username });
      const user = await identity.app.db.user.findUniqueOrThrow({ where: { email: address } });
      const token = (await call(LOGIN, { username, password: PASSWORD })).data!.login.accessToken;
      const moderator = await seedUser(identity.app.db, { roles: ['user', 'moderator'] });
      const moderatorToken = await loginByCode(moderator.email);

      const plain = await call(BAN, { userId: user.id, type: 'hard' }, token);
      expect(plain.data!.banUser.status.identifier).toBe('access_denied');

      expect(
        (await call(BAN, { userId: user.id, type: 'hard', reason: 'spam' }, moderatorToken)).data!
          .banUser.status.success,
      ).toBe(true);
      const old = await call(ME, undefined, token);
      expect(old.httpStatus).toBe(401);
      expect(old.errors![0]!.extensions!.identifier).toBe('banned_user');
      expect(
        (await call(LOGIN, { username, password: PASSWORD })).data!.login.status.identifier,
      ).toBe('banned_user');
      await call(REQUEST_LINK, { email: address, originUrl: '/' });
      const { code } = await commandFor('LoginLinkRequested', address, 2);
      expect(
        (await call(VERIFY_CODE, { email: address, code })).data!.verifyLoginCode.status.identifier,
      ).toBe('banned_user');

      expect(
        (await call(BAN, { userId: user.id, type: 'hard' }, moderatorToken)).data!.banUser.status
          .identifier,
      ).toBe('redundant_mutation');
      expect(
        (await call(UNBAN, { userId: user.id, reason: 'Ban lifted.' }, moderatorToken)).data!
          .unbanUser.status.success,
      ).toBe(true);
      expect((await call(ME, undefined, token)).data!.getCurrentUserProfile.status.success).toBe(
        true,
      );
    });
  });
});
