// People for the scenarios: sign-up as the web does it (a log-in link by e-mail, its code read
// from the dev SMTP catcher's inbox, the account made with it), password log-in, log-in by link or
// code, and the staff of the demo seed (`npm start` writes .local/demo-users.json).
import http from 'k6/http';
import { eventually, gql, send, signIn } from './common.js';

/** The SMTP catcher's HTTP API (scripts/smtp-catcher.mjs), where the platform's mails land. */
export const INBOX_URL = (__ENV.INBOX_URL || 'http://127.0.0.1:38025').replace(/\/+$/, '');
export const PASSWORD = 'Load-Test-Pass-42';

const STATUS = 'status { success identifier }';
const REQUEST_LINK = `mutation ($input: RequestLoginLinkInput!) { requestLoginLink(input: $input) { ${STATUS} } }`;
const VERIFY_USER = `mutation ($input: VerifyUserInput!) { verifyUser(input: $input) { ${STATUS} } }`;
const VERIFY_LINK = `mutation ($input: VerifyLoginLinkInput!) { verifyLoginLink(input: $input) { ${STATUS} isVerified } }`;
const VERIFY_CODE = `mutation ($input: VerifyLoginCodeInput!) { verifyLoginCode(input: $input) { ${STATUS} isVerified } }`;
const LOGIN = `mutation ($input: LoginInput!) { login(input: $input) { ${STATUS} } }`;
const LOGOUT = `mutation { logout { ${STATUS} } }`;
const ME = `query { getCurrentUserProfile { ${STATUS} profile { id username } } }`;
const WALLET = `query { getWallet { ${STATUS} wallet { availableAmount } } }`;

/** The ids of the mails this virtual user has used (a code or link is used once). */
const read = {};

const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;

/**
 * The newest mail to `email` that arrived at or after `since` (ms), with its six-digit code and
 * its magic link's `hash` and `expires`; polled, as a person waits for the mail.
 */
export function mailTo(email, since) {
  return eventually(
    'inbox: the mail arrived',
    () => {
      const res = http.get(`${INBOX_URL}/api/messages?to=${encodeURIComponent(email)}`, {
        tags: { group: 'inbox', name: 'inbox', target: 'inbox' },
      });
      if (res.status !== 200) return null;
      // The newest mail not read before: a log-in mail of a moment ago may still be the newest.
      const mail = (res.json() || []).find(
        (each) => !read[each.id] && Date.parse(each.date) >= since,
      );
      if (!mail) return null;
      read[mail.id] = true;
      const code = /\b(\d{6})\b/.exec(mail.text);
      const link = /\/login\/magic-link\/verify\?(\S+)/.exec(mail.text);
      if (!code || !link) return null;
      const query = {};
      for (const pair of link[1].split('&')) {
        const [key, value] = pair.split('=');
        query[key] = decodeURIComponent(value || '');
      }
      return { code: code[1], hash: query.hash, expires: Number(query.expires) };
    },
    { seconds: 30, everySeconds: 0.25 },
  );
}

/** The link or code of a fresh log-in mail to `email` (null when the request or mail failed). */
function requestLink(group, email) {
  const since = Date.now();
  const requested = gql(group, 'requestLoginLink', REQUEST_LINK, {
    input: { email, originUrl: '/' },
  });
  return requested ? mailTo(email, since) : null;
}

/** A new adult account made through the sign-up mail; { email, username, password, token, id }. */
export function signUp(group = 'signup', prefix = 'load') {
  const id = unique();
  const email = `${prefix}-${id}@load.test`;
  const mail = requestLink(group, email);
  if (!mail) return null;
  const username = `${prefix}_${id}`.slice(0, 30);
  const token = signIn(group, 'verifyUser', VERIFY_USER, {
    input: {
      email,
      code: mail.code,
      username,
      password: PASSWORD,
      repeatPassword: PASSWORD,
      birthday: '1990-01-01',
      acceptTerms: true,
    },
  });
  if (!token) return null;
  const me = gql(group, 'getCurrentUserProfile', ME, {}, token);
  return me ? { email, username, password: PASSWORD, token, id: me.profile.id } : null;
}

/** Password log-in; the session's bearer token, or null. */
export function logIn(group, username, password) {
  return signIn(group, 'login', LOGIN, { input: { username, password } });
}

/** Log-in by the e-mailed link (`byCode` false) or its six-digit code; the token, or null. */
export function logInByMail(group, email, byCode) {
  const mail = requestLink(group, email);
  if (!mail) return null;
  return byCode
    ? signIn(group, 'verifyLoginCode', VERIFY_CODE, { input: { email, code: mail.code } })
    : signIn(group, 'verifyLoginLink', VERIFY_LINK, {
        input: { email, hash: mail.hash, expires: mail.expires },
      });
}

/** The signed-in page's first question, then log-out (the token is refused from then on). */
export function useThenLogOut(group, token) {
  const me = gql(group, 'getCurrentUserProfile', ME, {}, token);
  gql(group, 'logout', LOGOUT, {}, token);
  return me;
}

/**
 * `count` new accounts whose wallets have opened (wallet opens one on UserRegistered): what the
 * money scenarios need before their first top-up.
 */
export function people(count, group = 'signup', prefix = 'load') {
  const out = [];
  for (let i = 0; i < count; i += 1) {
    const person = signUp(group, prefix);
    if (!person) throw new Error(`sign-up ${i + 1} of ${count} failed (run with -e DEBUG=1)`);
    out.push(person);
  }
  for (const person of out) {
    eventually(
      'wallet: opened after sign-up',
      () => {
        const { result } = send(group, 'getWallet', WALLET, {}, person.token);
        return result && result.status.success ? result : null;
      },
      { seconds: 60 },
    );
  }
  return out;
}

/**
 * The demo seed's staff (`text` is the file .local/demo-users.json, read in the init context),
 * signed in with their password: { referee, moderator, admin } bearer tokens.
 */
export function demoStaff(text) {
  if (!text) {
    throw new Error(
      'no demo users: start the platform with npm start (it writes .local/demo-users.json), or pass -e DEMO_USERS=<file>',
    );
  }
  const users = JSON.parse(text);
  const withRole = (role) => {
    const user = users.find((each) => each.roles.includes(role));
    if (!user) throw new Error(`the demo seed has no ${role}`);
    const token = logIn('staff', user.username, user.password);
    if (!token) throw new Error(`the demo ${role} ${user.username} could not log in`);
    return token;
  };
  return {
    referee: withRole('referee'),
    moderator: withRole('moderator'),
    admin: withRole('admin'),
  };
}

/** The demo users file, read in the init context (open() works only there), or ''. */
export function readDemoUsers(openFile) {
  try {
    return openFile(__ENV.DEMO_USERS || '../.local/demo-users.json');
  } catch (_) {
    return '';
  }
}
