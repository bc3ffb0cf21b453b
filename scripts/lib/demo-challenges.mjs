/**
 * Demo challenges for `npm start`, through the real API (so each reward is really held, captured
 * or released by wallet, and each proof video really goes through media's pipeline): between
 * alice and bob, one challenge in each state a user reaches, open, accepted, refused, cancelled,
 * review and completed, the last two with short real videos made by ffmpeg here and uploaded
 * through the gateway's multipart path (media transcodes them and makes the thumbnails), a
 * couple of respects and comments, and one duel (docs/adr/0064).
 *
 * Idempotent by challenge: a demo challenge is known by its owner and name. One that exists is
 * taken from the state it is in to the state the demo wants (a `npm start` stopped half-way
 * finishes on the next one); one that has reached its state, or ended otherwise (expired), is
 * left alone. Videos are made only when some demo challenge still needs one.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';

const STATUS = 'status { success identifier message }';
const ALL_STATUSES = [
  'open',
  'accepted',
  'review',
  'referee',
  'completed',
  'failed',
  'refused',
  'cancelled',
  'expired',
];

async function call(gatewayUrl, token, query, variables = {}) {
  const response = await fetch(`${gatewayUrl}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ query, variables }),
  });
  const body = await response.json();
  if (body.errors?.length) throw new Error(body.errors[0].message);
  return body.data;
}

/**
 * What the demo makes: owner, challenged user, the challenge, the state it is left in and, for
 * review and completed, the proof video (an ffmpeg test source and a tone, so each is its own
 * picture and no proof looks recycled from another).
 */
export const DEMO_CHALLENGES = [
  {
    owner: 'alice',
    challenged: 'bob',
    leaveIn: 'open',
    input: {
      challengeName: 'Cartwheel on the beach',
      challengeDescription: 'Three cartwheels in a row at Scheveningen, sand and all.',
      challengeReward: 1_000,
      tags: ['sport', 'outdoor'],
    },
  },
  {
    owner: 'alice',
    challenged: 'bob',
    leaveIn: 'accepted',
    input: {
      challengeName: 'Sing the Wilhelmus backwards',
      challengeDescription: 'The first verse, backwards, without notes. Proof phrase included.',
      challengeReward: 1_500,
      tags: ['music'],
    },
  },
  {
    owner: 'bob',
    challenged: 'alice',
    leaveIn: 'refused',
    reason: 'Ice baths are not my thing, sorry!',
    input: {
      challengeName: 'Ice bath for two minutes',
      challengeDescription: 'Two full minutes in a tub of ice water, timer in view.',
      challengeReward: 500,
      tags: ['cold', 'endurance'],
    },
  },
  {
    owner: 'alice',
    challenged: 'bob',
    leaveIn: 'cancelled',
    input: {
      challengeName: 'Juggle five eggs',
      challengeDescription: 'Five raw eggs, ten seconds, in the kitchen.',
      challengeReward: 500,
      tags: ['juggling'],
      visibility: 'private',
    },
  },
  {
    owner: 'alice',
    challenged: 'bob',
    leaveIn: 'review',
    videos: { challenged: { source: 'testsrc2', tone: 523 } },
    input: {
      challengeName: 'Twenty keepy-uppies',
      challengeDescription: 'Twenty touches in a row without the ball touching the ground.',
      challengeReward: 750,
      tags: ['football', 'sport'],
    },
  },
  {
    owner: 'alice',
    challenged: 'bob',
    leaveIn: 'completed',
    videos: { challenged: { source: 'smptehdbars', tone: 659 } },
    // Respects come from others: a party cannot respect their own challenge.
    likes: ['rita_referee', 'ada_admin'],
    comments: [
      ['alice', 'Smoothest moonwalk I have ever seen in a kitchen. Well earned!'],
      ['bob', 'Socks on a tiled floor: that is the whole secret.'],
    ],
    input: {
      challengeName: 'Moonwalk across the kitchen',
      challengeDescription: 'From the fridge to the window, Billie Jean style.',
      challengeReward: 1_250,
      tags: ['dance'],
    },
  },
  {
    owner: 'bob',
    challenged: 'alice',
    leaveIn: 'completed',
    videos: { challenged: { source: 'mandelbrot', tone: 440 } },
    likes: ['rita_referee'],
    comments: [
      ['bob', 'Ten seconds that felt like a minute. Respect!'],
      ['rita_referee', 'No hands, I checked the whole video.'],
    ],
    input: {
      challengeName: 'Balance a spoon on your nose',
      challengeDescription: 'Ten seconds, no hands, spoon on the tip of your nose.',
      challengeReward: 500,
      tags: ['balance', 'silly'],
    },
  },
  {
    // A duel: both stake, both perform, each judges the other's video (ADR 32). bob approves
    // alice's video; his own waits for alice's verdict. Until media lets a duel's owner upload
    // (the challenged user always may), alice's side waits for her video instead.
    owner: 'alice',
    challenged: 'bob',
    leaveIn: 'review',
    videos: {
      challenged: { source: 'rgbtestsrc', tone: 392 },
      owner: { source: 'testsrc', tone: 587 },
    },
    approveOwnerSide: true,
    input: {
      challengeName: 'Plank for sixty seconds',
      challengeDescription: 'A full minute of plank, stopwatch in view. Who holds it?',
      challengeReward: 1_000,
      tags: ['fitness', 'duel'],
      challengeType: 'duel',
    },
  },
];

/** The demo challenges that exist already, by owner and name: their slug, id and status. */
async function existingChallenges(gatewayUrl, token) {
  const found = new Map();
  for (const status of ALL_STATUSES) {
    for (let page = 1; ; page += 1) {
      const { getChallengesByStatus: result } = await call(
        gatewayUrl,
        token,
        `query($input: GetChallengesByStatusInput!) { getChallengesByStatus(input: $input) {
          ${STATUS} challenges { id slug status challengeName owner { username } }
          pagination { totalPages } } }`,
        { input: { status, page, itemsPerPage: 100 } },
      );
      if (!result.status.success) throw new Error(result.status.message);
      for (const challenge of result.challenges ?? []) {
        found.set(`${challenge.owner.username}/${challenge.challengeName}`, challenge);
      }
      if (page >= (result.pagination?.totalPages ?? 1)) break;
    }
  }
  return found;
}

/**
 * Creates one challenge. The challenged user's projection and the owner's top-up arrive by
 * events a moment after `npm start` registers them: wait for those, not for anything else.
 */
async function create(gatewayUrl, token, demo) {
  for (let attempt = 0; attempt < 60; attempt += 1) {
    const { createChallenge: created } = await call(
      gatewayUrl,
      token,
      `mutation($input: CreateChallengeInput!) { createChallenge(input: $input) {
        ${STATUS} challenges { slug } } }`,
      {
        input: {
          visibility: 'public',
          expirationTimeWeeks: 4,
          acceptCredit: true,
          ...demo.input,
          challengedUsername: demo.challenged,
        },
      },
    );
    if (created.status.success) return created.challenges[0];
    const waiting = ['insufficient_funds', 'user_not_found', 'unavailable_too_young'];
    if (!waiting.includes(created.status.identifier)) {
      throw new Error(`${created.status.identifier}: ${created.status.message}`);
    }
    await sleep(500);
  }
  throw new Error('the demo challenge could not be created within 30 s');
}

/** A mutation's result, retried while it answers one of `waitFor` (events still on their way). */
async function mutate(gatewayUrl, token, what, query, variables, waitFor = [], seconds = 30) {
  for (let attempt = 0; attempt < seconds * 2; attempt += 1) {
    const result = Object.values(await call(gatewayUrl, token, query, variables))[0];
    if (result.status.success) return result;
    if (!waitFor.includes(result.status.identifier)) {
      throw new Error(`${what}: ${result.status.identifier} ${result.status.message}`);
    }
    await sleep(500);
  }
  throw new Error(`${what}: still refused after ${seconds} s`);
}

const SET_STATUS = `mutation($input: UpdateChallengeStatusInput!) { updateChallengeStatus(input: $input) {
  ${STATUS} } }`;

const CHALLENGE = `query($input: GetChallengeBySlugInput!) { getChallengeBySlug(input: $input) {
  ${STATUS} challenge { id status sides { performer { username } status } challengeVideos { id } } } }`;

async function challengeOf(gatewayUrl, token, slug) {
  const { getChallengeBySlug: result } = await call(gatewayUrl, token, CHALLENGE, {
    input: { slug },
  });
  if (!result.status.success) throw new Error(`${slug}: ${result.status.identifier}`);
  return result.challenge;
}

/** Waits (media's worker and two Kafka hops) until `ready(challenge)` holds. */
async function waitFor(gatewayUrl, token, slug, what, ready, seconds = 180) {
  const deadline = Date.now() + seconds * 1000;
  for (;;) {
    const challenge = await challengeOf(gatewayUrl, token, slug);
    if (ready(challenge)) return challenge;
    if (Date.now() > deadline) {
      throw new Error(`${slug} did not reach ${what} within ${seconds} s (${challenge.status})`);
    }
    await sleep(500);
  }
}

/**
 * Short real proof videos, made once per run in a scratch folder: three seconds of an ffmpeg test
 * source with a tone, portrait 360x640 like a phone's, H.264/AAC (tens of kilobytes).
 */
function videoMaker() {
  const made = new Map();
  let scratch;
  const run = promisify(execFile);
  return {
    async bytes({ source, tone }) {
      const key = `${source}-${tone}`;
      if (!made.has(key)) {
        made.set(
          key,
          (async () => {
            scratch ??= await mkdtemp(path.join(tmpdir(), 'demo-videos-'));
            const file = path.join(scratch, `${key}.mp4`);
            await run('ffmpeg', [
              ...['-hide_banner', '-loglevel', 'error', '-y'],
              ...['-f', 'lavfi', '-i', `${source}=size=360x640:rate=25`],
              ...['-f', 'lavfi', '-i', `sine=frequency=${tone}:sample_rate=44100`],
              ...['-t', '3', '-c:v', 'libx264', '-preset', 'veryfast', '-crf', '30'],
              ...['-pix_fmt', 'yuv420p', '-c:a', 'aac', '-b:a', '64k', '-movflags', '+faststart'],
              file,
            ]);
            return readFile(file);
          })(),
        );
      }
      return made.get(key);
    },
    async cleanUp() {
      if (scratch) await rm(scratch, { recursive: true, force: true });
    },
  };
}

/**
 * Uploads a proof as the web does: a GraphQL multipart request (operations, map, then the file)
 * through the gateway to media. Returns the status; media refuses with invalid_action until it
 * has heard of the acceptance (an event away) and when the uploader may not upload.
 */
async function uploadVideo(gatewayUrl, token, challengeId, bytes) {
  const form = new FormData();
  form.append(
    'operations',
    JSON.stringify({
      query: `mutation($input: CreateChallengeVideoInput!) { createChallengeVideo(input: $input) {
        id ${STATUS} } }`,
      variables: { input: { challengeId, ownVideoConfirmed: true, file: null } },
    }),
  );
  form.append('map', JSON.stringify({ 0: ['variables.input.file'] }));
  form.append('0', new Blob([bytes], { type: 'video/mp4' }), 'proof.mp4');
  const response = await fetch(`${gatewayUrl}/graphql`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  const body = await response.json();
  if (body.errors?.length) throw new Error(body.errors[0].message);
  return body.data.createChallengeVideo.status;
}

async function uploadEventually(gatewayUrl, token, challengeId, bytes, seconds) {
  // By the clock, not by attempts: media itself waits up to 3 s before it refuses a performer
  // whose acceptance it has not heard of, so 120 attempts took 7 minutes, not 60 s.
  const deadline = Date.now() + seconds * 1000;
  for (;;) {
    const status = await uploadVideo(gatewayUrl, token, challengeId, bytes);
    const waiting = !status.success && status.identifier === 'invalid_action';
    if (!waiting || Date.now() >= deadline) return status;
    await sleep(500);
  }
}

/** Respects and comments, each once: a respect is a toggle, so only when not yet given. */
async function socialize(gatewayUrl, tokens, demo, slug) {
  for (const username of demo.likes ?? []) {
    const token = tokens[username];
    if (!token) continue;
    const { getChallengeBySlug: result } = await call(
      gatewayUrl,
      token,
      `query($input: GetChallengeBySlugInput!) { getChallengeBySlug(input: $input) {
        challenge { hasLiked } } }`,
      { input: { slug } },
    );
    if (result.challenge?.hasLiked) continue;
    await mutate(
      gatewayUrl,
      token,
      `respect ${slug}`,
      `mutation($input: LikeChallengeInput!) { likeChallenge(input: $input) { ${STATUS} } }`,
      { input: { slug } },
    );
  }
  if (!demo.comments?.length) return;
  const { getChallengeComments: page } = await call(
    gatewayUrl,
    tokens[demo.owner],
    `query($input: GetChallengeCommentsInput!) { getChallengeComments(input: $input) {
      ${STATUS} comments { text author { username } } } }`,
    { input: { slug, itemsPerPage: 100 } },
  );
  const said = new Set((page.comments ?? []).map((c) => `${c.author.username}/${c.text}`));
  for (const [username, text] of demo.comments) {
    if (!tokens[username] || said.has(`${username}/${text}`)) continue;
    await mutate(
      gatewayUrl,
      tokens[username],
      `comment on ${slug}`,
      `mutation($input: AddChallengeCommentInput!) { addChallengeComment(input: $input) {
        ${STATUS} } }`,
      { input: { slug, text } },
    );
  }
}

const sideOf = (challenge, username) =>
  challenge.sides.find((side) => side.performer.username === username)?.status;

/**
 * Takes one demo challenge from where it is (nothing, or the status of an earlier run) to the
 * state the demo wants. Returns a line for the log, or null when there was nothing to do.
 */
async function advance(gatewayUrl, tokens, videos, demo, existing) {
  const { owner, challenged, leaveIn } = demo;
  const asOwner = tokens[owner];
  const asChallenged = tokens[challenged];
  const challenge = existing ?? (await create(gatewayUrl, asOwner, demo));
  const { slug } = challenge;
  let status = existing ? existing.status : 'open';
  const setStatus = (token, to, extra = {}, waitOn = []) =>
    mutate(
      gatewayUrl,
      token,
      `${to} ${slug}`,
      SET_STATUS,
      { input: { slug, status: to, ...extra } },
      waitOn,
    );

  if (status === 'open' && leaveIn !== 'open') {
    if (leaveIn === 'refused') await setStatus(asChallenged, 'refused', { reason: demo.reason });
    else if (leaveIn === 'cancelled') {
      await mutate(
        gatewayUrl,
        asOwner,
        `cancel ${slug}`,
        `mutation($slug: String!) { cancelChallenge(slug: $slug) { ${STATUS} } }`,
        { slug },
      );
    } else {
      // A duel's acceptance holds the challenged user's stake: wait for their top-up too.
      await setStatus(asChallenged, 'accepted', {}, ['insufficient_funds', 'user_not_found']);
    }
    status = leaveIn === 'refused' || leaveIn === 'cancelled' ? leaveIn : 'accepted';
  }

  const isDuel = demo.input.challengeType === 'duel';
  let note = '';
  if (demo.videos && ['accepted', 'review'].includes(status) && leaveIn !== 'accepted') {
    let current = await challengeOf(gatewayUrl, asOwner, slug);
    const { id } = current;
    const needsVideo = (username) =>
      isDuel ? sideOf(current, username) === 'awaiting_video' : current.status === 'accepted';
    if (needsVideo(challenged) && current.challengeVideos.length === 0) {
      const bytes = await videos.bytes(demo.videos.challenged);
      const uploaded = await uploadEventually(gatewayUrl, asChallenged, id, bytes, 60);
      if (!uploaded.success) throw new Error(`upload to ${slug}: ${uploaded.identifier}`);
    }
    if (isDuel && demo.videos.owner && needsVideo(owner)) {
      // The challenged user's upload went through, so media knows the acceptance: a refusal now
      // is media's rule (it does not let a duel's owner upload yet), not an event on its way.
      const bytes = await videos.bytes(demo.videos.owner);
      const uploaded = await uploadEventually(gatewayUrl, asOwner, id, bytes, 2);
      if (!uploaded.success) note = ` (${owner}'s video refused: ${uploaded.identifier})`;
    }
    current = await waitFor(gatewayUrl, asOwner, slug, 'review with its video', (c) =>
      isDuel
        ? sideOf(c, challenged) !== 'awaiting_video' &&
          (note !== '' || sideOf(c, owner) !== 'awaiting_video')
        : c.status !== 'accepted',
    );
    status = current.status;
    if (isDuel && demo.approveOwnerSide && sideOf(current, owner) === 'review') {
      await setStatus(asChallenged, 'completed');
    }
  }
  if (!isDuel && leaveIn === 'completed' && status === 'review') {
    await setStatus(asOwner, 'completed');
    status = 'completed';
  }
  if (demo.likes || demo.comments) await socialize(gatewayUrl, tokens, demo, slug);
  if (existing && existing.status === status && !note) return null;
  const euros = (demo.input.challengeReward / 100).toFixed(2);
  const kind = isDuel ? 'duel' : 'solo';
  return `demo challenge  ${owner} -> ${challenged}  €${euros}  ${kind} ${leaveIn.padEnd(9)} ${slug}${note}`;
}

export async function seedDemoChallenges({ gatewayUrl, accounts }) {
  const tokens = Object.fromEntries(accounts.map((account) => [account.username, account.token]));
  if (!tokens.alice || !tokens.bob) return;
  const existing = await existingChallenges(gatewayUrl, tokens.alice);
  const pending = DEMO_CHALLENGES.map((demo) => ({
    demo,
    found: existing.get(`${demo.owner}/${demo.input.challengeName}`),
  })).filter(({ demo, found }) => !found || found.status !== demo.leaveIn || demo.likes);
  const videos = videoMaker();
  // ffmpeg starts at once on the videos still to upload, while the challenges are being made.
  for (const { demo, found } of pending) {
    if (!demo.videos || (found && !['open', 'accepted'].includes(found.status))) continue;
    for (const spec of Object.values(demo.videos)) videos.bytes(spec).catch(() => {});
  }
  try {
    // Side by side: the waits for events and for media's worker overlap. Logged in order.
    const results = await Promise.allSettled(
      pending.map(({ demo, found }) => advance(gatewayUrl, tokens, videos, demo, found)),
    );
    for (const result of results) {
      if (result.status === 'fulfilled' && result.value) console.log(result.value);
    }
    const failed = results.find((result) => result.status === 'rejected');
    if (failed) throw failed.reason;
  } finally {
    await videos.cleanUp();
  }
}
