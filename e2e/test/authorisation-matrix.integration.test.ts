import { randomBytes, randomUUID } from 'node:crypto';
import { seedUser } from '@challenge/identity/seed';
import type { Role } from '@challenge/kit';
import {
  INTERNAL_ANSWER,
  eventually,
  graphql,
  rawRequest,
  tokenFor,
  traversalPaths,
  type Caller,
} from '@challenge/testing';
import { seedStrayHold, seedWallet, walletCount } from '@challenge/wallet/seed';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentOf, operations, type Operation } from '../support/api-schema.ts';
import {
  MATRIX_ROLES,
  address,
  answersAsExpected,
  inPool,
  outcomeOf,
  type Expected,
  type MatrixRole,
} from '../support/matrix.ts';
import { startTestGateway } from '../support/gateway.ts';
import { startPlatform, type Platform } from '../support/platform.ts';
import { signOptOutToken } from '@challenge/notification/links';
import {
  challengeIn as challengeInOf,
  challengeInput,
  challengeOf,
} from '../support/challenges.ts';

/**
 * The authorisation matrix (issue 10): every query and mutation of the composed supergraph, asked
 * through the real gateway by each role, with the answer the table expects. An operation that the
 * supergraph has and this table lacks fails the test: a new operation gets its row here.
 */

const A = 'allow';
const UNAUTH = 'unauthorized';
const DENIED = 'access_denied';
const BANNED = 'banned_user';
const PASSWORD = 'Sturdy-Pass-42';
const OWNER_ONLY = 'invalid_challenge_owner';
/** Every matrix user is an adult: challenge's 18+ rule needs the birthday identity announces. */
const ADULT = new Date(Date.UTC(1990, 4, 17));

type Variables = Record<string, unknown>;
interface Row {
  /** visitor, user (a stranger), party (owner), banned, referee, moderator, admin. */
  expect: [Expected, Expected, Expected, Expected, Expected, Expected, Expected];
  /** The operation's variables, with real data; none by default. */
  variables?: (fixtures: Fixtures, role: MatrixRole) => Variables | Promise<Variables>;
  /** Destructive for its caller (logout, deleteUser): a fresh user of the role per cell. */
  fresh?: true;
}

interface Person {
  id: string;
  username: string;
  roles: Role[];
}

interface Fixtures {
  /** The party: owns a private profile, a private challenge and a top-up. */
  party: Person;
  /** An adult whom the party challenges (not a column: the rows' party is the owner). */
  challenged: Person;
  /** The party's private challenge of `challenged`, open, created with its reward held. */
  privateSlug: string;
  /** Its id, once moderation's projection knows the challenge. */
  privateId: string;
  /** The opt-out token of a fresh invited address (notification's signed link, issue 18). */
  optOutToken(): string;
  /** A fresh private challenge of the party, brought to `status` through the real steps. */
  challengeIn(status: 'open' | 'review' | 'referee'): Promise<string>;
  topUpId: string;
  /** A user nobody else uses, for staff actions that change them. */
  target(): Promise<Person>;
  /** An open payout request of a fresh user, for staff to complete. */
  openPayout(): Promise<string>;
  /** The id of a challenge wallet never heard of whose reward a fresh user holds (ADR 72). */
  strayHold(): Promise<string>;
  /** The standing user of a role (null for the visitor). */
  personOf(role: MatrixRole): Person | null;
  /** A fresh user that moderation already knows (its identity.v1 projection), to report. */
  reportable(): Promise<Person>;
  /** A fresh open report (about a fresh user) by this reporter, or by a stranger. */
  openReport(reporterId?: string): Promise<string>;
  /** A fresh open referee case about two strangers. */
  openCase(): Promise<string>;
  /** A fresh challenge of two strangers that staff took offline (moderation's projection). */
  offlineChallenge(): Promise<string>;
  /** A fresh comment of the party on their private challenge (issue 14). */
  partyComment(): Promise<string>;
}

const PAYMENT_PROFILE = {
  paymentName: 'Matrix Tester',
  paymentAccountNumber: 'NL91ABNA0417164300',
  paymentBic: 'ABNANL2A',
  paymentAddress: 'Damrak 1',
  paymentPostalCode: '1012 LG',
  paymentCity: 'Amsterdam',
  paymentCountryCode: 'NL',
  phoneNumber: '+31612345678',
};

const staffOnly = (): Row['expect'] => [UNAUTH, DENIED, DENIED, BANNED, DENIED, A, A];
/** Referee cases: referees and admins (moderators handle reports, not disputes). */
const refereeOnly = (): Row['expect'] => [UNAUTH, DENIED, DENIED, BANNED, A, DENIED, A];
const adminOnly = (): Row['expect'] => [UNAUTH, DENIED, DENIED, BANNED, DENIED, DENIED, A];
const loggedIn = (): Row['expect'] => [UNAUTH, A, A, BANNED, A, A, A];
const anyone = (): Row['expect'] => [A, A, A, BANNED, A, A, A];
/** Only the party sees it; everyone else is told it is not there (or that it is private). */
const partyOnly = (hidden: Expected, visitor: Expected = hidden): Row['expect'] => [
  visitor,
  hidden,
  A,
  BANNED,
  hidden,
  hidden,
  hidden,
];

const MATRIX: Record<string, Row> = {
  // Queries
  getActivityLogByUser: { expect: loggedIn() },
  // A private challenge: its parties and staff (referee, moderator, admin) see it.
  getChallengeBySlug: {
    expect: ['challenge_not_found', 'challenge_not_found', A, BANNED, A, A, A],
    variables: (f) => ({ input: { slug: f.privateSlug } }),
  },
  getChallengesByStatus: { expect: anyone(), variables: () => ({ input: { status: 'open' } }) },
  // The reward bounds the create flow checks (issue 22): public, like the flow's first step.
  challengeRules: { expect: anyone() },
  getDashboardChallenges: { expect: loggedIn() },
  getCurrentUserProfile: { expect: loggedIn() },
  getEmailPreferences: { expect: loggedIn() },
  getFollowers: {
    expect: partyOnly('private_profile'),
    variables: (f) => ({ username: f.party.username }),
  },
  getFollowing: {
    expect: partyOnly('private_profile'),
    variables: (f) => ({ username: f.party.username }),
  },
  getOpenPayoutAmount: {
    expect: ['get_open_payout_amount_user_not_logged_in', A, A, BANNED, A, A, A],
  },
  getProfilePaymentInformation: { expect: loggedIn() },
  getSettings: {
    expect: partyOnly(DENIED, UNAUTH),
    variables: (f) => ({ username: f.party.username }),
  },
  getTopUp: { expect: partyOnly('not_found', UNAUTH), variables: (f) => ({ id: f.topUpId }) },
  getUserProfile: {
    expect: partyOnly('private_profile'),
    variables: (f) => ({ username: f.party.username }),
  },
  getWallet: { expect: loggedIn() },
  getWalletTransactions: { expect: loggedIn() },
  escrowReconciliation: { expect: staffOnly() },
  paginatedListOfPayoutRequests: { expect: staffOnly() },
  paginatedListOfReports: { expect: staffOnly(), variables: () => ({ type: 'User', page: 1 }) },
  // Moderation (issue 13)
  myReports: { expect: loggedIn() },
  paginatedListOfRefereeChallenges: { expect: refereeOnly(), variables: () => ({ page: 1 }) },
  paginatedListOfRefusedVideos: { expect: refereeOnly(), variables: () => ({ page: 1 }) },
  paginatedListOfAuditEntries: { expect: adminOnly(), variables: () => ({ page: 1 }) },
  paginatedListOfBannedUsers: {
    expect: staffOnly(),
    variables: () => ({ type: 'hard', page: 1 }),
  },
  paginatedListOfUnverifiedUsers: { expect: staffOnly(), variables: () => ({ input: {} }) },
  totalMoneyInCirculation: { expect: staffOnly() },

  // Mutations: signing in and out
  requestLoginLink: {
    expect: anyone(),
    variables: () => ({ input: { email: address(), originUrl: '/' } }),
  },
  verifyLoginLink: {
    expect: anyone(),
    variables: () => ({
      input: {
        email: address(),
        expires: Math.floor(Date.now() / 1000) + 600,
        hash: 'a'.repeat(64),
      },
    }),
  },
  verifyLoginCode: {
    expect: anyone(),
    variables: () => ({ input: { email: address(), code: '000000' } }),
  },
  verifyUser: {
    expect: anyone(),
    variables: () => ({
      input: {
        email: address(),
        code: '000000',
        username: `matrix_${randomBytes(3).toString('hex')}`,
        password: PASSWORD,
        repeatPassword: PASSWORD,
        birthday: '1990-01-01',
        acceptTerms: true,
      },
    }),
  },
  login: {
    expect: anyone(),
    variables: (f) => ({ input: { username: f.party.username, password: 'Wrong-Pass-42' } }),
  },
  logout: { expect: loggedIn(), fresh: true },
  requestForgotPasswordLink: {
    expect: anyone(),
    variables: () => ({ input: { email: address() } }),
  },
  resetForgottenPassword: {
    expect: anyone(),
    variables: () => ({
      input: { token: 'z'.repeat(43), password: PASSWORD, repeatPassword: PASSWORD },
    }),
  },
  reauthenticate: {
    expect: loggedIn(),
    variables: () => ({ input: { purpose: 'payment_profile', password: 'Wrong-Pass-42' } }),
  },
  changePassword: {
    expect: loggedIn(),
    variables: () => ({
      input: { currentPassword: 'Wrong-Pass-42', password: PASSWORD, repeatPassword: PASSWORD },
    }),
  },

  // Mutations: one's own profile and follows
  updateProfile: {
    expect: loggedIn(),
    variables: () => ({ input: { bio: 'Set by the matrix.' } }),
  },
  updateChallengeableProfile: {
    expect: loggedIn(),
    variables: () => ({ input: { challengeable: true } }),
  },
  // false: the party's profile must stay private for the rows above.
  updatePublicProfile: {
    expect: loggedIn(),
    variables: () => ({ input: { publicProfile: false } }),
  },
  updateMinimalChallenge: {
    expect: loggedIn(),
    variables: () => ({ input: { minimumChallengeEnabled: true, minimumChallengeValue: 500 } }),
  },
  followUser: { expect: loggedIn(), variables: (f) => ({ input: { username: f.party.username } }) },
  unfollowUser: {
    expect: loggedIn(),
    variables: (f) => ({ input: { username: f.party.username } }),
  },
  deleteUser: { expect: loggedIn(), fresh: true },
  updateEmailPreferences: {
    expect: loggedIn(),
    variables: () => ({ input: { marketing: false } }),
  },

  // Mutations: staff actions on users
  banUser: {
    expect: staffOnly(),
    variables: async (f) => ({ input: { userId: (await f.target()).id, type: 'soft' } }),
  },
  unbanUser: {
    expect: staffOnly(),
    // A reason for the audit log (issue 22).
    variables: async (f) => ({
      input: { userId: (await f.target()).id, reason: 'Appeal accepted.' },
    }),
  },
  moderatorVerifyUser: {
    expect: staffOnly(),
    variables: async (f) => ({ input: { userId: (await f.target()).id } }),
  },

  // Mutations: moderation (issue 13). Reports are anyone's, of what they may see (issue 18): the
  // party's private challenge is not found to a stranger, its owner does not report their own,
  // staff see (and report) it. Acting on reports is staff's.
  createReport: {
    expect: [UNAUTH, 'challenge_not_found', 'invalid_action', BANNED, A, A, A],
    variables: (f) => ({
      input: { entityType: 'Challenge', entityId: f.privateId, reason: 'spam' },
    }),
  },
  // Its reporter withdraws it: each cell's caller withdraws a report of their own.
  deleteReport: {
    expect: loggedIn(),
    variables: async (f, role) => ({
      input: { reportId: await f.openReport(f.personOf(role)?.id) },
    }),
  },
  moderateReport: {
    expect: staffOnly(),
    variables: async (f) => ({
      input: { reportId: await f.openReport(), action: 'dismiss', reason: 'Matrix.' },
    }),
  },
  bringChallengeBackOnline: {
    expect: staffOnly(),
    variables: async (f) => ({
      input: { challengeId: await f.offlineChallenge(), reason: 'Matrix.' },
    }),
  },
  decideRefereeCase: {
    expect: refereeOnly(),
    variables: async (f) => ({
      input: { caseId: await f.openCase(), decision: 'approve', reason: 'Matrix.' },
    }),
  },

  // Mutations: challenges. Everyone is an adult here (the 18+ rule has its own tests); a caller
  // without money is told insufficient_funds, an answer that counts as allowed.
  createChallenge: {
    expect: loggedIn(),
    variables: (f) => ({ input: challengeInput({ reward: 100, challenged: f.challenged }) }),
  },
  // The owner approves a video in review. A referee (even of a disputed one) and an admin decide
  // only in the referee case (ADR 70): referee_case_required. A stranger does not see the
  // private challenge; a moderator is not its owner.
  updateChallengeStatus: {
    expect: [
      UNAUTH,
      'challenge_not_found',
      A,
      BANNED,
      'referee_case_required',
      OWNER_ONLY,
      'referee_case_required',
    ],
    variables: async (f, role) => {
      if (role === 'visitor' || role === 'banned') {
        return { input: { slug: f.privateSlug, status: 'completed' } };
      }
      const slug = await f.challengeIn(role === 'referee' ? 'referee' : 'review');
      return { input: { slug, status: 'completed' } };
    },
  },
  cancelChallenge: {
    expect: [UNAUTH, 'challenge_not_found', A, BANNED, OWNER_ONLY, OWNER_ONLY, OWNER_ONLY],
    variables: async (f, role) => ({
      slug: role === 'visitor' || role === 'banned' ? f.privateSlug : await f.challengeIn('open'),
    }),
  },
  updateChallenge: {
    expect: [UNAUTH, 'challenge_not_found', A, BANNED, OWNER_ONLY, OWNER_ONLY, OWNER_ONLY],
    variables: (f) => ({
      input: { slug: f.privateSlug, challengeDescription: 'Edited by the matrix.' },
    }),
  },

  // Media (issue 12): a file only travels in a multipart request (the gateway streams it to
  // media); as JSON the Upload variable is refused (invalid_file) once the caller is known. Who
  // may upload through multipart is tested in media-uploads.integration.test.ts.
  createChallengeVideo: {
    expect: [
      UNAUTH,
      'invalid_file',
      'invalid_file',
      BANNED,
      'invalid_file',
      'invalid_file',
      'invalid_file',
    ],
    variables: () => ({
      input: {
        challengeId: '00000000-0000-4000-8000-000000000000',
        file: 'x',
        ownVideoConfirmed: true,
      },
    }),
  },

  // Mutations: money
  InitializePayment: {
    expect: loggedIn(),
    variables: () => ({ input: { amount: 1_000, originUrl: '/wallet' } }),
  },
  updateProfilePaymentInformation: {
    expect: loggedIn(),
    variables: () => ({ input: PAYMENT_PROFILE }),
  },
  payoutRequest: { expect: loggedIn(), variables: () => ({ input: { amount: 1_000 } }) },
  setPayoutRequestAsCompleted: {
    expect: staffOnly(),
    variables: async (f) => ({ id: await f.openPayout() }),
  },
  // A payout that is not held answers redundant_mutation: allowed, nothing to release.
  releasePayoutRequest: {
    expect: staffOnly(),
    variables: async (f) => ({ id: await f.openPayout() }),
  },
  cancelPayoutRequest: {
    expect: staffOnly(),
    variables: async (f) => ({ id: await f.openPayout(), reason: 'Returned by the bank' }),
  },
  // Staff release a stray hold (a fresh one per cell): the money moves once, audited (ADR 72).
  resolveEscrowHold: {
    expect: staffOnly(),
    variables: async (f) => ({
      input: { challengeId: await f.strayHold(), outcome: 'release', reason: 'No challenge' },
    }),
  },
  exportPayoutRequests: {
    expect: staffOnly(),
    // With no open payout the answer would be not_found; one is made for every cell.
    variables: async (f) => {
      await f.openPayout();
      return { input: { includeExported: true } };
    },
  },

  // Social and discovery (issue 14): the party's private challenge. Its owner cannot respect
  // their own challenge (invalid_action); staff see private challenges, so they may.
  discoverChallenges: { expect: anyone(), variables: () => ({ input: { list: 'all' } }) },
  discoverUsers: { expect: anyone(), variables: () => ({ input: { list: 'all' } }) },
  getChallengeComments: {
    expect: ['challenge_not_found', 'challenge_not_found', A, BANNED, A, A, A],
    variables: (f) => ({ input: { slug: f.privateSlug } }),
  },
  likeChallenge: {
    expect: [UNAUTH, 'challenge_not_found', 'invalid_action', BANNED, A, A, A],
    variables: (f) => ({ input: { slug: f.privateSlug } }),
  },
  addChallengeComment: {
    expect: [UNAUTH, 'challenge_not_found', A, BANNED, A, A, A],
    variables: (f) => ({ input: { slug: f.privateSlug, text: 'Said in the matrix.' } }),
  },
  // Its author deletes a comment, staff delete any; a stranger does not see it.
  deleteChallengeComment: {
    expect: [UNAUTH, 'not_found', A, BANNED, A, A, A],
    variables: async (f) => ({ input: { id: await f.partyComment() } }),
  },
  // Invitations by e-mail are the owner's (issue 18); staff see the challenge, so they would get
  // its link without addresses, but invite nobody.
  shareChallengeLink: {
    expect: [UNAUTH, 'challenge_not_found', A, BANNED, OWNER_ONLY, OWNER_ONLY, OWNER_ONLY],
    variables: (f) => ({
      input: {
        slug: f.privateSlug,
        emails: `matrix-${randomBytes(4).toString('hex')}@example.test`,
      },
    }),
  },
  // The invited address's opt-out link (issue 18): its token is the authority, no log-in needed.
  getInvitationOptOut: {
    expect: anyone(),
    variables: (f) => ({ input: { token: f.optOutToken() } }),
  },
  updateInvitationOptOut: {
    expect: anyone(),
    variables: (f) => ({ input: { token: f.optOutToken(), optedOut: true } }),
  },
};

/**
 * The gateway's HTTP paths besides /graphql (issue 18), asked by each role (a bearer token; none
 * for the visitor) with the path exactly as written: node:http puts it on the wire unchanged,
 * where fetch would resolve dot segments first. A cell is `<HTTP status>` or `<status>
 * <identifier>` (the gateway's or media's refusal); HEAD answers carry no body.
 */
interface PathRow {
  method: string;
  path: (c: PathContext) => string;
  headers?: (c: PathContext) => Record<string, string>;
  body?: string;
  /** The production gateway instead of the development one (the dev inbox is not mounted). */
  production?: true;
  /** Sent through the trusted proxy for a public address (X-Forwarded-For). */
  publicClient?: true;
  /** The answer may carry internal details (readiness checks, metrics): operators only. */
  internal?: true;
  expect: [string, string, string, string, string, string, string];
}

interface PathContext {
  /** The party's private open challenge. */
  challengeId: string;
  /** An avatar in the store, as identity names it. */
  avatarKey: string;
}

const all = (cell: string): PathRow['expect'] => [cell, cell, cell, cell, cell, cell, cell];
const base64 = (text: string) => Buffer.from(text).toString('base64');
const TUS = { 'tus-resumable': '1.0.0' };
/** A public address (GB) arriving through the trusted loopback proxy. */
const PUBLIC_CLIENT = { 'x-forwarded-for': '81.2.69.142' };

const PATH_MATRIX: Record<string, PathRow> = {
  'tus discovery': {
    method: 'OPTIONS',
    path: () => '/api/uploads/tus',
    expect: ['204', '204', '204', '401 banned_user', '204', '204', '204'],
  },
  // The party owns it (the challenged user performs); staff see it but upload nothing.
  'tus creation for the private challenge': {
    method: 'POST',
    path: () => '/api/uploads/tus',
    headers: (c) => ({
      ...TUS,
      'upload-length': '10',
      'upload-metadata': `challengeId ${base64(c.challengeId)},ownVideoConfirmed ${base64('true')}`,
    }),
    expect: [
      '401 unauthorized',
      '404 challenge_not_found',
      '403 invalid_action',
      '401 banned_user',
      '403 invalid_action',
      '403 invalid_action',
      '403 invalid_action',
    ],
  },
  'tus offset of an upload that is not theirs': {
    method: 'HEAD',
    path: () => `/api/uploads/tus/${randomUUID()}`,
    headers: () => TUS,
    expect: ['401', '404', '404', '401', '404', '404', '404'],
  },
  'tus append to an upload that is not theirs': {
    method: 'PATCH',
    path: () => `/api/uploads/tus/${randomUUID()}`,
    headers: () => ({
      ...TUS,
      'content-type': 'application/offset+octet-stream',
      'upload-offset': '0',
    }),
    body: 'xxxxxxxxxx',
    expect: [
      '401 unauthorized',
      '404 not_found',
      '404 not_found',
      '401 banned_user',
      '404 not_found',
      '404 not_found',
      '404 not_found',
    ],
  },
  // Avatars are public: no session, no geofence, banned or not.
  'an avatar': {
    method: 'GET',
    path: (c) => `/_ipx/w_64&f_webp/${c.avatarKey}`,
    expect: all('200'),
  },
  'a missing avatar': {
    method: 'GET',
    path: () => `/_ipx/w_64/avatars/${randomUUID()}/${randomUUID()}.png`,
    expect: all('404'),
  },
  'an image width that does not exist': {
    method: 'GET',
    path: (c) => `/_ipx/w_65/${c.avatarKey}`,
    expect: all('400'),
  },
  // The provider's call: no session; wallet asks the sandbox, which knows no such payment.
  'the payment webhook': {
    method: 'POST',
    path: () => '/api/payments/webhook',
    headers: () => ({ 'content-type': 'application/x-www-form-urlencoded' }),
    body: 'id=tr_matrixUnknown1',
    expect: all('200'),
  },
  'the payment webhook with an id that is no payment id': {
    method: 'POST',
    path: () => '/api/payments/webhook',
    headers: () => ({ 'content-type': 'application/x-www-form-urlencoded' }),
    body: 'id=..%2F..%2Fgraphql',
    expect: all('400'),
  },
  'the dev inbox, from this machine (development)': {
    method: 'GET',
    path: () => '/api/dev/inbox/messages?to=nobody%40example.test',
    expect: all('200'),
  },
  'the dev inbox, from the internet (development)': {
    method: 'GET',
    path: () => '/api/dev/inbox/messages',
    publicClient: true,
    expect: all('403 access_denied'),
  },
  'the dev inbox in production': {
    method: 'GET',
    path: () => '/api/dev/inbox/messages',
    production: true,
    expect: all('404'),
  },
  'the dev inbox in production, another case': {
    method: 'GET',
    path: () => '/API/Dev/Inbox/messages',
    production: true,
    expect: all('404'),
  },
  'the dev inbox page in production': {
    method: 'GET',
    path: () => '/dev/inbox',
    production: true,
    expect: all('404'),
  },
  'the dev inbox in production, climbing': {
    method: 'GET',
    path: () => '/api/dev/inbox/../inbox/messages',
    production: true,
    expect: all('404'),
  },
  'metrics, from the cluster': {
    method: 'GET',
    path: () => '/metrics',
    internal: true,
    expect: all('200'),
  },
  'metrics, from the internet': {
    method: 'GET',
    path: () => '/metrics',
    publicClient: true,
    expect: all('403 access_denied'),
  },
  'readiness with its checks, from the cluster': {
    method: 'GET',
    path: () => '/readyz',
    internal: true,
    expect: all('200'),
  },
  // The status alone: which dependency fails, and how, is for operators.
  'readiness, from the internet': {
    method: 'GET',
    path: () => '/readyz',
    publicClient: true,
    expect: all('200'),
  },
  liveness: { method: 'GET', path: () => '/healthz', publicClient: true, expect: all('200') },
};

/**
 * Who climbs: nobody, a user, a banned user (the refusal must come before the session), staff.
 */
const CLIMBERS: MatrixRole[] = ['visitor', 'user', 'banned', 'admin'];

/** Paths that climb out of a forwarding prefix: refused (400 or 404) for everyone, never forwarded. */
const CLIMBING_PREFIXES = [
  '/api/uploads/tus/',
  `/api/uploads/tus/${randomUUID()}/`,
  '/_ipx/',
  '/_ipx/w_64/avatars/',
  '/api/payments/webhook/',
  '/api/dev/inbox/',
  '/metrics/',
  '/readyz/',
];

const ROLES_OF: Record<Exclude<MatrixRole, 'visitor'>, Role[]> = {
  user: ['user'],
  party: ['user'],
  banned: ['user'],
  referee: ['user', 'referee'],
  moderator: ['user', 'moderator'],
  admin: ['user', 'admin'],
};

describe('the authorisation matrix: every operation of the supergraph x every role', () => {
  const supergraph = operations();
  let platform: Platform;
  let fixtures: Fixtures;
  const people = new Map<MatrixRole, Person>();
  let moderator: Person;

  async function person(roles: Role[]): Promise<Person> {
    const user = await seedUser(platform.identity.app.db, { roles }, { birthday: ADULT });
    return { id: user.id, username: user.username, roles };
  }

  /** The wallet opened on the user's UserRegistered event, through Kafka. */
  const walletOpened = (user: Person) =>
    eventually(async () => {
      if ((await walletCount(platform.wallet.app.db, user.id)) !== 1)
        throw new Error('no wallet yet');
    });

  async function banned(): Promise<Person> {
    const user = await person(['user']);
    const response = await graphql(
      platform.gateway.url,
      'mutation ($input: BanUserInput!) { banUser(input: $input) { status { success identifier } } }',
      { input: { userId: user.id, type: 'hard' } },
      moderator,
    );
    expect(response.data?.banUser.status).toEqual({ success: true, identifier: 'ok' });
    return user;
  }

  /** A fresh user, once moderation's projection of identity.v1 has them. */
  async function reportable(): Promise<Person> {
    const user = await person(['user']);
    await eventually(async () => {
      const known = await platform.moderation.app.db.knownUser.findUnique({
        where: { id: user.id },
      });
      if (!known) throw new Error('moderation does not know the user yet');
    });
    return user;
  }

  const send = (query: string, variables: Variables, as: Caller) =>
    graphql(platform.gateway.url, query, variables, as);

  beforeAll(async () => {
    platform = await startPlatform();
    moderator = await person(['user', 'moderator']);
    for (const role of ['user', 'party', 'referee', 'moderator', 'admin'] as const) {
      people.set(role, await person(ROLES_OF[role]));
    }
    people.set('banned', await banned());
    const party = people.get('party')!;
    await Promise.all([...people.values()].map(walletOpened));

    const privately = await send(
      'mutation { updatePublicProfile(input: { publicProfile: false }) { status { success } } }',
      {},
      party,
    );
    expect(privately.data?.updatePublicProfile.status.success).toBe(true);
    // Money for the party's challenges (each matrix cell that cancels or judges makes its own).
    await seedWallet(platform.wallet.app.db, party.id, 50_000);
    const challenged = await person(['user']);
    await walletOpened(challenged);
    const parties = {
      owner: { ...party, email: '' },
      challenged: { ...challenged, email: '' },
    };
    const challengeIn = async (status: 'open' | 'review' | 'referee') =>
      (await challengeInOf(platform, status, parties, { reward: 100, visibility: 'private' })).slug;
    const { slug: privateSlug, id: privateId } = await challengeInOf(platform, 'open', parties, {
      reward: 100,
      visibility: 'private',
    });
    await eventually(async () => {
      const known = await platform.moderation.app.db.knownChallenge.findUnique({
        where: { id: privateId },
      });
      if (known?.visibility !== 'private') throw new Error('moderation does not know it yet');
    });
    const topUp = await send(
      'mutation ($input: InitializePaymentInput!) { InitializePayment(input: $input) { status { success identifier } paymentId } }',
      { input: { amount: 1_000, originUrl: '/wallet' } },
      party,
    );
    expect(topUp.data?.InitializePayment.status).toEqual({ success: true, identifier: 'ok' });

    fixtures = {
      party,
      challenged,
      privateSlug,
      privateId,
      optOutToken: () =>
        signOptOutToken(
          platform.notification.app.links.secret,
          `matrix-${randomBytes(4).toString('hex')}@example.test`,
        ),
      challengeIn,
      topUpId: topUp.data!.InitializePayment.paymentId,
      target: () => person(['user']),
      async openPayout() {
        const owner = await person(['user']);
        await walletOpened(owner);
        await seedWallet(platform.wallet.app.db, owner.id, 5_000);
        const profile = await send(
          'mutation ($input: PaymentProfileInput!) { updateProfilePaymentInformation(input: $input) { status { success identifier } } }',
          { input: PAYMENT_PROFILE },
          owner,
        );
        expect(profile.data?.updateProfilePaymentInformation.status.success).toBe(true);
        const payout = await send(
          'mutation ($input: PayoutRequestInput!) { payoutRequest(input: $input) { status { success identifier } payoutRequest { id } } }',
          { input: { amount: 1_000 } },
          owner,
        );
        expect(payout.data?.payoutRequest.status.success).toBe(true);
        return payout.data!.payoutRequest.payoutRequest.id as string;
      },
      async strayHold() {
        const challengeId = randomUUID();
        await seedStrayHold(platform.wallet.app.db, challengeId, randomUUID());
        return challengeId;
      },
      personOf: (role) => (role === 'visitor' ? null : people.get(role)!),
      reportable,
      async openReport(reporterId = randomUUID()) {
        const target = await reportable();
        const report = await platform.moderation.app.db.report.create({
          data: {
            reporterId,
            entityType: 'User',
            entityId: target.id,
            reason: 'spam',
            title: target.username,
            url: `/profile/${target.username}`,
          },
        });
        return report.id;
      },
      async openCase() {
        const now = new Date();
        const challengedUserId = randomUUID();
        const refereeCase = await platform.moderation.app.db.refereeCase.create({
          data: {
            challengeId: randomUUID(),
            ownerId: randomUUID(),
            challengedUserId,
            performerId: challengedUserId,
            slug: `matrix-${randomBytes(3).toString('hex')}`,
            challengeName: 'Matrix dispute',
            rewardCents: 100,
            reason: 'No proof.',
            openedAt: now,
            deadline: new Date(now.getTime() + 7 * 86_400_000),
          },
        });
        return refereeCase.id;
      },
      async offlineChallenge() {
        const challenge = await platform.moderation.app.db.knownChallenge.create({
          data: {
            id: randomUUID(),
            slug: `matrix-${randomBytes(3).toString('hex')}`,
            name: 'Matrix offline',
            ownerId: randomUUID(),
            challengedUserId: randomUUID(),
            moderation: 'offline',
            offlineAt: new Date(),
          },
        });
        return challenge.id;
      },
      async partyComment() {
        const added = await send(
          'mutation ($input: AddChallengeCommentInput!) { addChallengeComment(input: $input) { status { success identifier } comment { id } } }',
          { input: { slug: privateSlug, text: 'To be deleted.' } },
          party,
        );
        expect(added.data?.addChallengeComment.status.success).toBe(true);
        return added.data!.addChallengeComment.comment.id as string;
      },
    };
  });
  afterAll(async () => {
    await platform?.stop();
  });

  it('has a row for every query and mutation of the supergraph, and none for a missing one', () => {
    const names = supergraph.map((operation) => operation.name);
    expect({
      withoutRow: names.filter((name) => !(name in MATRIX)),
      rowWithoutOperation: Object.keys(MATRIX).filter((name) => !names.includes(name)),
    }).toEqual({ withoutRow: [], rowWithoutOperation: [] });
  });

  it('answers every cell as the table says, through the real gateway', async () => {
    const covered = supergraph.filter((operation) => operation.name in MATRIX);

    /** Who asks in a cell: the role's standing user, or a fresh one for destructive rows. */
    async function callerFor(role: MatrixRole, row: Row): Promise<Caller | undefined> {
      if (role === 'visitor') return undefined;
      if (!row.fresh) {
        const user = people.get(role)!;
        return role === 'banned' ? { token: await tokenFor(user) } : user;
      }
      const user = role === 'banned' ? await banned() : await person(ROLES_OF[role]);
      return role === 'banned' ? { token: await tokenFor(user) } : user;
    }

    const cells = covered.flatMap((operation: Operation) =>
      MATRIX_ROLES.map((role, column) => async () => {
        const row = MATRIX[operation.name]!;
        const expected = row.expect[column]!;
        const variables = (await row.variables?.(fixtures, role)) ?? {};
        const caller = await callerFor(role, row);
        const response = await graphql(
          platform.gateway.url,
          documentOf(operation),
          variables,
          caller,
        );
        const outcome = outcomeOf(response, operation.name);
        return answersAsExpected(outcome, expected)
          ? null
          : `${operation.name} as ${role}: expected ${expected}, got ${outcome}`;
      }),
    );
    const wrong = (await inPool(6, cells)).filter((line) => line !== null);
    console.log(
      `authorisation matrix: ${covered.length} operations x ${MATRIX_ROLES.length} roles = ${cells.length} cells checked`,
    );
    expect(wrong).toEqual([]);
  }, 180_000);

  it('answers every non-GraphQL path of the gateway as its table says, asked with raw paths', async () => {
    const production = await startTestGateway(
      {
        identity: platform.identity.url,
        challenge: platform.challenge.url,
        wallet: platform.wallet.url,
        media: platform.media.url,
        moderation: platform.moderation.url,
        notification: platform.notification.url,
      },
      { production: true },
    );
    try {
      const development = new URL(platform.gateway.url).origin;
      const productionOrigin = new URL(production.url).origin;
      const party = people.get('party')!;
      const challengeId = (await challengeOf(platform, party, fixtures.privateSlug))?.challenge
        .id as string;
      // Media decides uploads on its projection of the challenge (fed by challenge.v1).
      await eventually(async () => {
        const known = await platform.media.app.db.challengeAccess.findUnique({
          where: { challengeId },
        });
        if (!known?.ownerId) throw new Error('media does not know the challenge yet');
      });
      const avatarKey = `avatars/${party.id}/${randomUUID()}.png`;
      const png = await sharp({
        create: { width: 96, height: 96, channels: 3, background: '#2e86de' },
      })
        .png()
        .toBuffer();
      await platform.media.app.storage.putObject(avatarKey, png, 'image/png');
      const context: PathContext = { challengeId, avatarKey };
      // One token per role, signed once: thousands of requests follow.
      const bearers = new Map<MatrixRole, Record<string, string>>();
      for (const role of MATRIX_ROLES) {
        bearers.set(
          role,
          role === 'visitor'
            ? {}
            : { authorization: `Bearer ${await tokenFor(people.get(role)!)}` },
        );
      }
      const bearerOf = (role: MatrixRole) => bearers.get(role)!;

      const cells = Object.entries(PATH_MATRIX).flatMap(([name, row]) =>
        MATRIX_ROLES.map((role, column) => async () => {
          const answer = await rawRequest(row.production ? productionOrigin : development, {
            method: row.method,
            path: row.path(context),
            headers: {
              ...bearerOf(role),
              ...(row.publicClient ? PUBLIC_CLIENT : {}),
              ...row.headers?.(context),
            },
            body: row.body,
          });
          const outcome = [answer.status, identifierIn(answer.body)].filter(Boolean).join(' ');
          const problems = [];
          if (outcome !== row.expect[column])
            problems.push(`expected ${row.expect[column]}, got ${outcome}`);
          if (!row.internal && INTERNAL_ANSWER.test(answer.body)) {
            problems.push(`internal details: ${answer.body.slice(0, 120)}`);
          }
          return problems.length
            ? `${row.method} ${name} as ${role}: ${problems.join('; ')}`
            : null;
        }),
      );
      const climbing = CLIMBING_PREFIXES.flatMap((prefix) =>
        traversalPaths(prefix, ['graphql', 'metrics', 'readyz']),
      ).flatMap((path) =>
        ['GET', 'POST'].flatMap((method) =>
          CLIMBERS.map((role) => async () => {
            const answer = await rawRequest(development, {
              method,
              path,
              headers: {
                ...bearerOf(role),
                ...(method === 'POST' ? { 'content-type': 'application/json', ...TUS } : {}),
              },
              body:
                method === 'POST' ? JSON.stringify({ query: '{ _service { sdl } }' }) : undefined,
            });
            const refused = answer.status === 400 || answer.status === 404;
            return refused && !INTERNAL_ANSWER.test(answer.body)
              ? null
              : `${method} ${path} as ${role}: ${answer.status} ${answer.body.slice(0, 80)}`;
          }),
        ),
      );
      const wrong = (await inPool(6, [...cells, ...climbing])).filter((line) => line !== null);
      console.log(
        `authorisation matrix: ${Object.keys(PATH_MATRIX).length} paths x ${MATRIX_ROLES.length} roles, and ${climbing.length} climbing requests, checked`,
      );
      expect(wrong).toEqual([]);
    } finally {
      await production.stop();
    }
  }, 180_000);
});

/** The catalogue identifier in a refusal's body: the gateway's GraphQL error or media's status. */
function identifierIn(body: string): string | undefined {
  try {
    const parsed = JSON.parse(body) as {
      errors?: { extensions?: { identifier?: string } }[];
      status?: { identifier?: string };
    };
    return parsed.errors?.[0]?.extensions?.identifier ?? parsed.status?.identifier;
  } catch {
    return undefined;
  }
}
