import { randomBytes } from 'node:crypto';
import { buildApp as buildChallenge } from '@challenge/challenge/app';
import { buildApp as buildIdentity } from '@challenge/identity/app';
import { seedUser } from '@challenge/identity/seed';
import { buildApp as buildMedia } from '@challenge/media/app';
import { buildApp as buildModeration } from '@challenge/moderation/app';
import { buildApp as buildNotification } from '@challenge/notification/app';
import {
  deleteTopics,
  eventually,
  graphql,
  inbox,
  stack,
  startTestService,
  testIdentityConfig,
  tokenFor,
  uniqueTopicPrefix,
  type TestService,
  testWalletConfig,
} from '@challenge/testing';
import { buildApp as buildWallet } from '@challenge/wallet/app';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway } from '../support/gateway.ts';

const ORIGIN = 'http://127.0.0.1';
const STATUS = 'status { success identifier }';
const PASSWORD = 'Sturdy-Pass-42';

/** A browser: keeps the session cookie and sends the site's Origin, as the web app would. */
class Browser {
  cookie: string | null = null;
  constructor(
    private readonly url: string,
    private readonly forwardedFor?: string,
  ) {}

  async send(query: string, variables: Record<string, unknown> = {}) {
    const response = await fetch(this.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        origin: ORIGIN,
        ...(this.cookie ? { cookie: this.cookie } : {}),
        ...(this.forwardedFor ? { 'x-forwarded-for': this.forwardedFor } : {}),
      },
      body: JSON.stringify({ query, variables }),
    });
    const setCookie = response.headers.get('set-cookie');
    if (setCookie?.startsWith('session=')) {
      const value = setCookie.split(';')[0]!;
      this.cookie = value === 'session=' ? null : value;
    }
    const body = (await response.json()) as {
      // Navigated freely by the tests; their assertions check the shape.
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      data?: any;
      errors?: { extensions?: Record<string, unknown> }[];
    };
    return { httpStatus: response.status, setCookie, ...body };
  }
}

const address = () => `e2e-${randomBytes(5).toString('hex')}@example.test`;
const ME = `{ getCurrentUserProfile { ${STATUS} profile { username } } }`;

async function mailTo(to: string) {
  return eventually(async () => {
    const [mail] = await inbox(to);
    if (!mail) throw new Error(`no mail for ${to} yet`);
    return mail;
  });
}

describe('identity and access, through the gateway with real e-mail', () => {
  const topicPrefix = uniqueTopicPrefix();
  const services: TestService<{ subgraph: unknown }>[] = [];
  let identity: TestService<Awaited<ReturnType<typeof buildIdentity>>>;
  let subgraphUrls: Record<string, string>;
  let gateway: Awaited<ReturnType<typeof startTestGateway>>;

  beforeAll(async () => {
    const options = { topicPrefix };
    const started = await Promise.all([
      startTestService(
        'identity',
        async (runtime, url) => buildIdentity(runtime, await testIdentityConfig(url)),
        options,
      ),
      startTestService(
        'notification',
        (runtime, url) =>
          buildNotification(runtime, url, {
            mail: {
              host: stack.smtp.host,
              port: stack.smtp.port,
              secure: false,
              from: 'Challenge <no-reply@challenge.test>',
            },
          }),
        options,
      ),
      startTestService(
        'wallet',
        (runtime, url) => buildWallet(runtime, testWalletConfig(url)),
        options,
      ),
      startTestService('challenge', buildChallenge, options),
      startTestService('moderation', buildModeration, options),
      startTestService(
        'media',
        (runtime, url) => buildMedia(runtime, url, { ...stack.s3, bucket: 'challenge-media-test' }),
        options,
      ),
    ]);
    services.push(...started);
    identity = started[0];
    subgraphUrls = Object.fromEntries(
      started.map((service) => [service.runtime.name, service.url]),
    );
    gateway = await startTestGateway(subgraphUrls, { trustProxy: 'loopback' });
  });
  afterAll(async () => {
    await gateway?.stop();
    await Promise.all(services.map((service) => service.stop()));
    await deleteTopics(topicPrefix);
  });

  /** A new account made the way a person would: link requested, code read from the e-mail. */
  async function signUpByCode(prefix: string): Promise<{ email: string; username: string }> {
    const browser = new Browser(gateway.url);
    const email = address();
    await browser.send(
      `mutation($input: RequestLoginLinkInput!) { requestLoginLink(input: $input) { ${STATUS} } }`,
      { input: { email, originUrl: '/' } },
    );
    const code = (await mailTo(email)).text.match(/\b\d{6}\b/)![0];
    const username = `${prefix}_${randomBytes(3).toString('hex')}`;
    const created = await browser.send(
      `mutation($input: VerifyUserInput!) { verifyUser(input: $input) { ${STATUS} } }`,
      {
        input: {
          email,
          code,
          username,
          password: PASSWORD,
          repeatPassword: PASSWORD,
          birthday: '1990-01-01',
          acceptTerms: true,
        },
      },
    );
    expect(created.data.verifyUser.status.success).toBe(true);
    return { email, username };
  }

  it('signs up by magic link read from the SMTP catcher, and is then logged in by cookie', async () => {
    const browser = new Browser(gateway.url);
    const email = address();
    const requested = await browser.send(
      `mutation($input: RequestLoginLinkInput!) { requestLoginLink(input: $input) { email ${STATUS} } }`,
      { input: { email, originUrl: '/challenge/create/step-1' } },
    );
    expect(requested.data.requestLoginLink.status.success).toBe(true);

    const mail = await mailTo(email);
    const link = new URL(mail.text.match(/https?:\/\/\S+\/login\/magic-link\/verify\?\S+/)![0]);
    const proof = {
      hash: link.searchParams.get('hash')!,
      expires: Number(link.searchParams.get('expires')),
    };
    const verified = await browser.send(
      `mutation($input: VerifyLoginLinkInput!) { verifyLoginLink(input: $input) { isVerified ${STATUS} } }`,
      { input: { email, ...proof } },
    );
    expect(verified.data.verifyLoginLink).toEqual({
      isVerified: false,
      status: { success: true, identifier: 'ok' },
    });

    const username = `link_${randomBytes(3).toString('hex')}`;
    const created = await browser.send(
      `mutation($input: VerifyUserInput!) { verifyUser(input: $input) { ${STATUS} } }`,
      {
        input: {
          email,
          ...proof,
          username,
          password: PASSWORD,
          repeatPassword: PASSWORD,
          birthday: '1999-05-17',
          acceptTerms: true,
        },
      },
    );
    expect(created.data.verifyUser.status.success).toBe(true);
    expect(created.setCookie).toMatch(/^session=[^;]+; .*HttpOnly/i);
    expect(created.setCookie).toMatch(/SameSite=Strict/i);
    expect(created.setCookie).toMatch(/Max-Age=7889238/i);
    expect(JSON.stringify(created.data)).not.toMatch(/accessToken|eyJ/); // the token stays in the cookie

    const me = await browser.send(ME);
    expect(me.data.getCurrentUserProfile.profile.username).toBe(username);
  });

  it('signs up by the code in the e-mail', async () => {
    const browser = new Browser(gateway.url);
    const email = address();
    await browser.send(
      `mutation($input: RequestLoginLinkInput!) { requestLoginLink(input: $input) { ${STATUS} } }`,
      {
        input: { email, originUrl: '/' },
      },
    );
    const code = (await mailTo(email)).text.match(/\b\d{6}\b/)![0];
    const username = `code_${randomBytes(3).toString('hex')}`;
    const created = await browser.send(
      `mutation($input: VerifyUserInput!) { verifyUser(input: $input) { ${STATUS} } }`,
      {
        input: {
          email,
          code,
          username,
          password: PASSWORD,
          repeatPassword: PASSWORD,
          birthday: '2001-01-31',
          acceptTerms: true,
        },
      },
    );
    expect(created.data.verifyUser.status.success).toBe(true);
    expect((await browser.send(ME)).data.getCurrentUserProfile.profile.username).toBe(username);
  });

  it('logs in by username and password, logs out, and the old session is refused', async () => {
    const browser = new Browser(gateway.url);
    const { username } = await signUpByCode('pw');

    const login = await browser.send(
      `mutation($input: LoginInput!) { login(input: $input) { ${STATUS} } }`,
      {
        input: { username, password: PASSWORD },
      },
    );
    expect(login.data.login.status.success).toBe(true);
    const oldCookie = browser.cookie;
    expect(oldCookie).toMatch(/^session=/);

    const logout = await browser.send(`mutation { logout { ${STATUS} } }`);
    expect(logout.data.logout.status.success).toBe(true);
    expect(logout.setCookie).toMatch(/^session=;.*Max-Age=0/i);

    browser.cookie = oldCookie;
    const reused = await browser.send(ME);
    expect(reused.httpStatus).toBe(401);
    expect(reused.errors?.[0]?.extensions?.identifier).toBe('unauthorized');
  });

  it('resets a forgotten password from the e-mailed link, then changes it', async () => {
    const browser = new Browser(gateway.url);
    const { email, username } = await signUpByCode('rs');

    await browser.send(
      `mutation($input: RequestForgotPasswordLinkInput!) { requestForgotPasswordLink(input: $input) { ${STATUS} } }`,
      { input: { email } },
    );
    const resetMail = await eventually(async () => {
      const mail = (await inbox(email)).find((message) =>
        /\/login\/recover\/reset\?token=/.test(message.text),
      );
      if (!mail) throw new Error('no reset mail yet');
      return mail;
    });
    const token = new URL(
      resetMail.text.match(/https?:\/\/\S+\/login\/recover\/reset\?\S+/)![0],
    ).searchParams.get('token');
    const reset = await browser.send(
      `mutation($input: ResetForgottenPasswordInput!) { resetForgottenPassword(input: $input) { ${STATUS} } }`,
      { input: { token, password: 'Fresh-Pass-77', repeatPassword: 'Fresh-Pass-77' } },
    );
    expect(reset.data.resetForgottenPassword.status.success).toBe(true);

    const login = await browser.send(
      `mutation($input: LoginInput!) { login(input: $input) { ${STATUS} } }`,
      {
        input: { username, password: 'Fresh-Pass-77' },
      },
    );
    expect(login.data.login.status.success).toBe(true);
    const changed = await browser.send(
      `mutation($input: ChangePasswordInput!) { changePassword(input: $input) { ${STATUS} } }`,
      {
        input: {
          currentPassword: 'Fresh-Pass-77',
          password: 'Third-Pass-99',
          repeatPassword: 'Third-Pass-99',
        },
      },
    );
    expect(changed.data.changePassword.status.success).toBe(true);
    const again = await new Browser(gateway.url).send(
      `mutation($input: LoginInput!) { login(input: $input) { ${STATUS} } }`,
      {
        input: { username, password: 'Third-Pass-99' },
      },
    );
    expect(again.data.login.status.success).toBe(true);
  });

  it("refuses a banned user's old token in every subgraph and at the gateway", async () => {
    const user = await seedUser(identity.app.db);
    const moderator = await seedUser(identity.app.db, { roles: ['user', 'moderator'] });
    const token = await tokenFor({ id: user.id });
    const banned = await graphql(
      gateway.url,
      `mutation($input: BanUserInput!) { banUser(input: $input) { ${STATUS} } }`,
      { input: { userId: user.id, type: 'hard' } },
      { id: moderator.id, roles: ['user', 'moderator'] },
    );
    expect(banned.data!.banUser.status.success).toBe(true);

    const atGateway = await graphql(gateway.url, ME, {}, { token });
    expect(atGateway.httpStatus).toBe(401);
    expect(atGateway.errors?.[0]?.extensions?.identifier).toBe('banned_user');
    for (const [name, url] of Object.entries(subgraphUrls)) {
      const response = await graphql(url, '{ __typename }', {}, { token });
      expect({
        name,
        status: response.httpStatus,
        identifier: response.errors?.[0]?.extensions?.identifier,
      }).toEqual({
        name,
        status: 401,
        identifier: 'banned_user',
      });
    }
  });

  it('lets an EU address through and refuses a non-EU one', async () => {
    const fromEurope = await new Browser(gateway.url, '81.2.69.142').send('{ __typename }');
    expect(fromEurope.httpStatus).toBe(200);
    const fromAmerica = await new Browser(gateway.url, '8.8.8.8').send('{ __typename }');
    expect(fromAmerica.httpStatus).toBe(403);
    expect(fromAmerica.errors?.[0]?.extensions?.identifier).toBe('access_denied_location');
    const location = await fetch(gateway.url.replace(/\/graphql$/, '/api/location'), {
      headers: { 'x-forwarded-for': '8.8.8.8' },
    });
    expect(await location.json()).toMatchObject({
      allowed: false,
      country: 'US',
      continent: 'NA',
      identifier: 'access_denied_location',
    });
  });
});
