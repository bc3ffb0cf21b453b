import { randomBytes } from 'node:crypto';
import { eventually, inbox } from '@challenge/testing';

/** The origin the test gateways take as the site's own (startTestGateway's publicOrigin). */
export const TEST_ORIGIN = 'http://127.0.0.1';
export const STATUS = 'status { success identifier message }';
export const PASSWORD = 'Sturdy-Pass-42';

/** A new address on the SMTP catcher's test domain. */
export const newAddress = (prefix = 'e2e') =>
  `${prefix}-${randomBytes(5).toString('hex')}@example.test`;

/**
 * A browser: keeps the session cookie, sends the site's Origin as the web app would and, like the
 * web app, a `traceparent` when asked to.
 */
export class BrowserSession {
  cookie: string | null = null;
  constructor(private readonly url: string) {}

  async send(
    query: string,
    variables: Record<string, unknown> = {},
    headers: Record<string, string> = {},
  ) {
    const response = await fetch(this.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        origin: TEST_ORIGIN,
        ...(this.cookie ? { cookie: this.cookie } : {}),
        ...headers,
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
    return { httpStatus: response.status, ...body };
  }
}

/** The newest e-mail to `to`, once the SMTP catcher has it. */
export function mailTo(to: string) {
  return eventually(async () => {
    const [mail] = await inbox(to);
    if (!mail) throw new Error(`no mail for ${to} yet`);
    return mail;
  });
}

/** Asks for a sign-in code for `email` and reads it from the e-mail, as a person would. */
export async function requestCode(browser: BrowserSession, email: string): Promise<string> {
  const requested = await browser.send(
    `mutation($input: RequestLoginLinkInput!) { requestLoginLink(input: $input) { ${STATUS} } }`,
    { input: { email, originUrl: '/' } },
  );
  if (!requested.data?.requestLoginLink?.status?.success) {
    throw new Error(`requestLoginLink failed: ${JSON.stringify(requested)}`);
  }
  return (await mailTo(email)).text.match(/\b\d{6}\b/)![0];
}

export const VERIFY_USER = `mutation($input: VerifyUserInput!) { verifyUser(input: $input) { ${STATUS} } }`;

/** verifyUser's input for a new adult account. */
export const signUpInput = (email: string, code: string, username: string) => ({
  input: {
    email,
    code,
    username,
    password: PASSWORD,
    repeatPassword: PASSWORD,
    birthday: '2001-01-31',
    acceptTerms: true,
  },
});
