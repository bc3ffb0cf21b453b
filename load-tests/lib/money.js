// The money path as people walk it: a card top-up through the payment sandbox's checkout, a
// challenge with its reward held in escrow, the challenged person's acceptance and proof video,
// the owner's judgement; and what a report and a referee case add to it.
import http from 'k6/http';
import { check, sleep } from 'k6';
import { Counter } from 'k6/metrics';
import { checkAnswer, eventually, gql, send } from './common.js';

const STATUS = 'status { success identifier }';
const INITIALIZE_PAYMENT = `mutation ($input: InitializePaymentInput!) { InitializePayment(input: $input) { ${STATUS} payment_url paymentId } }`;
const WALLET = `query { getWallet { ${STATUS} wallet { availableAmount freezeAmount } } }`;
const CREATE = `mutation ($input: CreateChallengeInput!) { createChallenge(input: $input) { ${STATUS} challenges { slug } } }`;
const BY_SLUG = `query ($input: GetChallengeBySlugInput!) { getChallengeBySlug(input: $input) { ${STATUS} challenge { id slug status } } }`;
const SET_STATUS = `mutation ($input: UpdateChallengeStatusInput!) { updateChallengeStatus(input: $input) { ${STATUS} } }`;
const CREATE_VIDEO = `mutation ($input: CreateChallengeVideoInput!) { createChallengeVideo(input: $input) { ${STATUS} id } }`;
const CREATE_REPORT = `mutation ($input: CreateReportInput!) { createReport(input: $input) { ${STATUS} report { id entityId } } }`;
const REPORTS = `query ($page: Int!) { paginatedListOfReports(type: "Challenge", page: $page, itemsPerPage: 100) { ${STATUS} items { id entityId } } }`;
const MODERATE = `mutation ($input: ModerateReportInput!) { moderateReport(input: $input) { ${STATUS} outcome } }`;
const CASES = `query ($page: Int!) { paginatedListOfRefereeChallenges(page: $page, itemsPerPage: 100) { ${STATUS} items { id slug caseStatus } } }`;
const DECIDE = `mutation ($input: DecideRefereeCaseInput!) { decideRefereeCase(input: $input) { ${STATUS} } }`;

/** Uploads sent again because media had not yet heard that the challenge was accepted. */
const uploadRetries = new Counter('upload_retries_not_yet_accepted');

/** The smallest top-up the wallet takes (TOP_UP_MIN_CENTS), and the reward of each challenge. */
export const REWARD_CENTS = 500;

/**
 * A card top-up of `cents`: InitializePayment, then the sandbox's checkout page paid (what the
 * "Pay" button posts; it answers 303 back to the site and sends the webhook through the gateway),
 * then the wallet asked until the money is there.
 */
export function topUp(token, cents) {
  const before = gql('topup', 'getWallet', WALLET, {}, token);
  const started = gql(
    'topup',
    'InitializePayment',
    INITIALIZE_PAYMENT,
    {
      input: { amount: cents, originUrl: '/wallet' },
    },
    token,
  );
  if (!before || !started) return false;
  const paid = http.post(
    started.payment_url,
    { action: 'paid' },
    {
      redirects: 0,
      tags: { group: 'checkout', name: 'sandbox checkout', target: 'sandbox' },
    },
  );
  if (!check(paid, { 'checkout: paid (303)': (r) => r.status === 303 })) return false;
  const wanted = before.wallet.availableAmount + cents;
  return !!eventually(
    'topup: the money arrived',
    () => {
      const { result } = send('topup', 'getWallet', WALLET, {}, token);
      return result && result.wallet && result.wallet.availableAmount >= wanted;
    },
    { seconds: 60 },
  );
}

/** A public solo challenge of `owner` for `challenged` (reward held in escrow): { slug, id }. */
export function createChallenge(owner, challenged, name) {
  const made = gql(
    'challenge',
    'createChallenge',
    CREATE,
    {
      input: {
        challengeName: name,
        challengeDescription: 'On video, in one take, with the proof phrase said aloud.',
        challengeReward: REWARD_CENTS,
        tags: ['load'],
        visibility: 'public',
        expirationTimeWeeks: 2,
        acceptCredit: true,
        challengedUsername: challenged.username,
      },
    },
    owner.token,
  );
  if (!made) return null;
  const slug = made.challenges[0].slug;
  const read = gql('challenge', 'getChallengeBySlug', BY_SLUG, { input: { slug } }, owner.token);
  return read ? { slug, id: read.challenge.id } : null;
}

export function setStatus(who, slug, status, reason) {
  return gql(
    'challenge',
    'updateChallengeStatus',
    SET_STATUS,
    {
      input: { slug, status, ...(reason ? { reason } : {}) },
    },
    who.token,
  );
}

/** Waits until the challenge reaches `status` (media's VideoProcessed moves it to review). */
export function statusBecomes(who, slug, status, seconds = 90) {
  return eventually(
    `challenge: ${status}`,
    () => {
      const { result } = send(
        'poll',
        'getChallengeBySlug',
        BY_SLUG,
        { input: { slug } },
        who.token,
      );
      return !!result && !!result.challenge && result.challenge.status === status;
    },
    { seconds, everySeconds: 0.5 },
  );
}

const BOUNDARY = '----k6-load-test-boundary-5c1d';

/** ASCII text to bytes. */
function bytesOf(text) {
  const out = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i += 1) out[i] = text.charCodeAt(i);
  return out;
}

/**
 * The proof video as the web's upload fallback sends it: one GraphQL multipart request
 * (operations, map, then the file) through the gateway to media, which stores and transcodes it.
 * `clip` is an ArrayBuffer of a real small MP4 (open(path, 'b') in the init context).
 */
export function uploadProof(who, challengeId, clip) {
  const operations = JSON.stringify({
    query: CREATE_VIDEO,
    variables: { input: { challengeId, ownVideoConfirmed: true, file: null } },
  });
  const part = (name, value) =>
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
  const head = bytesOf(
    part('operations', operations) +
      part('map', JSON.stringify({ 0: ['variables.input.file'] })) +
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="0"; filename="proof.mp4"\r\n` +
      'Content-Type: video/mp4\r\n\r\n',
  );
  const tail = bytesOf(`\r\n--${BOUNDARY}--\r\n`);
  const file = new Uint8Array(clip);
  const body = new Uint8Array(head.length + file.length + tail.length);
  body.set(head, 0);
  body.set(file, head.length);
  body.set(tail, head.length + file.length);
  const params = {
    body: body.buffer,
    headers: { 'Content-Type': `multipart/form-data; boundary=${BOUNDARY}` },
  };
  // Media learns of the challenge and its acceptance from challenge's events: an upload a moment
  // after accepting can find no challenge yet (challenge_not_found) or one not yet accepted
  // (invalid_action). A person tries again; so does this, counting each retry, for at most 15 s.
  const deadline = Date.now() + 15_000;
  for (;;) {
    const answer = send('upload', 'createChallengeVideo', null, null, who.token, params);
    const status = answer.result && answer.result.status;
    const early = status && ['challenge_not_found', 'invalid_action'].includes(status.identifier);
    if (!early || Date.now() > deadline) {
      return checkAnswer('upload', 'createChallengeVideo', answer) ? answer.result : null;
    }
    uploadRetries.add(1);
    sleep(0.5);
  }
}

/**
 * A challenge from its creation to the owner's judgement: created (reward held), accepted, the
 * proof uploaded and processed (review). Returns { slug, id } in review, or null.
 */
export function challengeInReview(owner, challenged, clip, name) {
  const challenge = createChallenge(owner, challenged, name);
  if (!challenge) return null;
  if (!setStatus(challenged, challenge.slug, 'accepted')) return null;
  if (!uploadProof(challenged, challenge.id, clip)) return null;
  return statusBecomes(owner, challenge.slug, 'review') ? challenge : null;
}

/** Someone reports the challenge; a moderator finds the report in the queue and dismisses it. */
export function reportAndDismiss(reporter, moderatorToken, challengeId) {
  const report = gql(
    'report',
    'createReport',
    CREATE_REPORT,
    {
      input: { entityType: 'Challenge', entityId: challengeId, reason: 'spam' },
    },
    reporter.token,
  );
  if (!report) return false;
  const listed = findInPages(
    'moderate',
    'paginatedListOfReports',
    REPORTS,
    moderatorToken,
    (item) => item.id === report.report.id,
  );
  if (!listed) return false;
  return !!gql(
    'moderate',
    'moderateReport',
    MODERATE,
    {
      input: {
        reportId: listed.id,
        action: 'dismiss',
        reason: 'Load test: nothing wrong with it.',
      },
    },
    moderatorToken,
  );
}

/** The referee finds the challenge's open case in the console's list and decides it. */
export function refereeDecides(refereeToken, slug, decision) {
  const found = eventually(
    'referee: the case opened',
    () =>
      findInPages(
        'referee',
        'paginatedListOfRefereeChallenges',
        CASES,
        refereeToken,
        (item) => item.slug === slug && item.caseStatus === 'open',
      ),
    { seconds: 30 },
  );
  if (!found) return false;
  return !!gql(
    'referee',
    'decideRefereeCase',
    DECIDE,
    {
      input: { caseId: found.id, decision, reason: `Load test: ${decision}.` },
    },
    refereeToken,
  );
}

/** The first item of a staff list (pages of 100) that `matches`, or null; at most 5 pages. */
function findInPages(group, field, query, token, matches) {
  for (let page = 1; page <= 5; page += 1) {
    const list = gql(group, field, query, { page }, token);
    if (!list) return null;
    const item = list.items.find(matches);
    if (item) return item;
    if (list.items.length < 100) return null;
  }
  return null;
}

/**
 * The proof clip, read in the init context by the entry script's `(file) => open(file, 'b')`
 * (CLIP, or load-tests/data/clip.mp4), or null; `requireClip` in setup() refuses to run without.
 * `npm run load` and the smoke test make it with ffmpeg.
 */
export function readClip(openFile) {
  try {
    return openFile(__ENV.CLIP || './data/clip.mp4');
  } catch (_) {
    return null;
  }
}

export function requireClip(clip) {
  if (!clip)
    throw new Error('no proof clip: run through npm run load, or pass -e CLIP=<small mp4>');
}

/** Tops the owner up (ten rewards' worth) when their wallet cannot hold one more reward. */
export function ensureFunds(owner) {
  const wallet = gql('topup', 'getWallet', WALLET, {}, owner.token);
  if (!wallet) return false;
  if (wallet.wallet.availableAmount >= REWARD_CENTS) return true;
  return topUp(owner.token, 10 * REWARD_CENTS);
}
