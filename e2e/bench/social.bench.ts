/**
 * Benchmark of the discover lists and a profile (issue 14), printed as figures: identity and
 * challenge on databases seeded with 10,000 users and 100,000 challenges (bulk SQL inserts), each
 * list asked through the real gateway, sequentially, as a logged-in user who follows 200 people.
 * Media runs too, its projection seeded for every challenge and a ready video with a thumbnail for
 * every other one, so that the cards ask what the web's cards ask (`thumbnailUrl`, ADR 56).
 * Target: p95 under 50 ms on two cores (docs/adr/0043).
 */
import { cpus, loadavg } from 'node:os';
import { buildApp as buildChallenge } from '@challenge/challenge/app';
import { buildApp as buildIdentity } from '@challenge/identity/app';
import { buildApp as buildMedia } from '@challenge/media/app';
import {
  deleteTopics,
  graphql,
  stack,
  startTestService,
  testIdentityConfig,
  tokenFor,
  uniqueTopicPrefix,
} from '@challenge/testing';
import { startTestGateway } from '../support/gateway.ts';
import globalSetup from '../../packages/testing/src/global-setup.ts';

const USERS = 10_000;
const CHALLENGES = 100_000;
const FOLLOWED = 200;
const WARM_UP = 20;
const REQUESTS = 200;

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
const fmt = (ms: number) => `${ms.toFixed(1)} ms`;

await globalSetup();
const topicPrefix = uniqueTopicPrefix();
const options = { topicPrefix };
const [identity, challenge] = await Promise.all([
  startTestService(
    'identity',
    async (runtime, url) => buildIdentity(runtime, await testIdentityConfig(url)),
    options,
  ),
  startTestService('challenge', buildChallenge, options),
]);
const media = await startTestService(
  'media',
  (runtime, url) => buildMedia(runtime, url, { ...stack.s3, bucket: 'challenge-media-test' }),
  options,
);
const gateway = await startTestGateway(
  { identity: identity.url, challenge: challenge.url, media: media.url },
  {
    graphqlRateLimit: { ip: 1_000_000, windowSeconds: 60 },
    graphqlUserRateLimit: { user: 1_000_000, windowSeconds: 60 },
    graphqlAddressCeiling: { ip: 1_000_000, windowSeconds: 60 },
  },
);

// Seeding: bulk inserts straight into each service's own database (the bench's, not an API's).
let started = performance.now();
await identity.app.db.$executeRawUnsafe(`
  INSERT INTO users (id, email, username, username_key, created_at, updated_at)
  SELECT gen_random_uuid(), 'bench' || g || '@example.test', 'bench_' || g, 'bench_' || g,
         now() - (g || ' minutes')::interval, now()
    FROM generate_series(1, ${USERS}) AS g`);
const ids = (
  await identity.app.db.$queryRawUnsafe<{ id: string }[]>(
    `SELECT id::text FROM users ORDER BY username`,
  )
).map((row) => row.id);
const viewer = ids[0]!;
const busy = ids[1]!;
const followed = ids.slice(2, 2 + FOLLOWED);
await identity.app.db.$executeRawUnsafe(
  `INSERT INTO follows (follower_id, followee_id) SELECT $1::uuid, unnest($2::uuid[])`,
  viewer,
  followed,
);
await challenge.app.db.$executeRawUnsafe(
  `INSERT INTO known_follows (follower_id, followee_id) SELECT $1::uuid, unnest($2::uuid[])`,
  viewer,
  followed,
);
// Challenges: 90% public, 20% duels, statuses mixed, one a minute back in time; every 37th owned
// by the busy user, whose profile is measured.
await challenge.app.db.$executeRawUnsafe(
  `
  INSERT INTO challenges (id, slug, owner_id, challenged_user_id, name, description, reward_cents,
                          status, visibility, expiration_date, expiration_time_weeks,
                          challenge_type, tags, created_at, updated_at)
  SELECT gen_random_uuid(), 'bench-' || g,
         CASE WHEN g % 37 = 0 THEN $2::uuid ELSE ($1::uuid[])[1 + ((g::bigint * 7919) % ${USERS})::int] END,
         ($1::uuid[])[1 + ((g::bigint * 104729) % ${USERS})::int],
         'Bench challenge ' || g, 'Do it on video.', 100 + (g % 50) * 100,
         (ARRAY['open','accepted','review','referee','completed','failed','refused','expired',
                'cancelled','completed'])[1 + g % 10]::"ChallengeStatus",
         (CASE WHEN g % 10 = 0 THEN 'private' ELSE 'public' END)::"ChallengeVisibility",
         now() + interval '14 days', 2,
         (CASE WHEN g % 5 = 0 THEN 'duel' ELSE 'solo' END)::"ChallengeType",
         ARRAY['bench'], now() - (g || ' minutes')::interval, now()
    FROM generate_series(1, ${CHALLENGES}) AS g`,
  ids,
  busy,
);
// A respect on every challenge by someone, and 300 by the busy user.
await challenge.app.db.$executeRawUnsafe(
  `
  INSERT INTO challenge_likes (challenge_id, user_id)
  SELECT id, ($1::uuid[])[1 + (abs(hashtext(id::text)) % ${USERS})] FROM challenges
  ON CONFLICT DO NOTHING`,
  ids,
);
await challenge.app.db.$executeRawUnsafe(
  `
  INSERT INTO challenge_likes (challenge_id, user_id)
  SELECT id, $1::uuid FROM challenges WHERE visibility = 'public' AND owner_id <> $1::uuid
   ORDER BY created_at DESC LIMIT 300
  ON CONFLICT DO NOTHING`,
  busy,
);
// Media's projection of every challenge (as its consumer would have written it), and a ready
// video with a thumbnail for every other one: the cards' thumbnails are signed, never fetched.
const projected = await challenge.app.db.$queryRawUnsafe<
  {
    id: string;
    owner: string;
    challenged: string;
    status: string;
    visibility: string;
    type: string;
  }[]
>(`SELECT id::text, owner_id::text AS owner, challenged_user_id::text AS challenged,
          status::text, visibility::text, challenge_type::text AS type FROM challenges`);
for (let from = 0; from < projected.length; from += 10_000) {
  const chunk = projected.slice(from, from + 10_000);
  const column = (key: keyof (typeof chunk)[number]) => chunk.map((row) => row[key]);
  await media.app.db.$executeRawUnsafe(
    `INSERT INTO challenge_access (challenge_id, owner_id, challenged_user_id, status, visibility,
                                   visibility_version, challenge_type, updated_at)
     SELECT unnest($1::uuid[]), unnest($2::uuid[]), unnest($3::uuid[]), unnest($4::text[]),
            unnest($5::text[]), 0, unnest($6::text[]), now()`,
    column('id'),
    column('owner'),
    column('challenged'),
    column('status'),
    column('visibility'),
    column('type'),
  );
}
await media.app.db.$executeRawUnsafe(`
  INSERT INTO challenge_videos (id, challenge_id, uploader_id, object_key, thumbnail_key, status,
                                created_at)
  SELECT gen_random_uuid(), challenge_id, challenged_user_id, 'bench/' || challenge_id || '/video.mp4',
         'bench/' || challenge_id || '/thumbnail.webp', 'ready', now()
    FROM challenge_access WHERE abs(hashtext(challenge_id::text)) % 2 = 0`);
// As autovacuum leaves a table in production: statistics, and a visibility map for index-only scans.
await identity.app.db.$executeRawUnsafe('VACUUM ANALYZE');
await challenge.app.db.$executeRawUnsafe('VACUUM ANALYZE');
await media.app.db.$executeRawUnsafe('VACUUM ANALYZE');
console.log(
  `seeded ${USERS} users, ${CHALLENGES} challenges (and media's projection, half with a thumbnail), ${CHALLENGES + 300} respects, ${FOLLOWED} follows in ${fmt(performance.now() - started)}`,
);

const busyName = (
  await identity.app.db.$queryRawUnsafe<{ username: string }[]>(
    `SELECT username FROM users WHERE id = $1::uuid`,
    busy,
  )
)[0]!.username;
const token = await tokenFor({ id: viewer });

const CARD =
  'slug challengeName challengeReward status challengeType challengeLikesCount hasLiked thumbnailUrl owner { username displayName avatar }';
const DISCOVER = `query ($input: DiscoverChallengesInput) { discoverChallenges(input: $input) { status { success } challenges { ${CARD} } pagination { totalCount totalPages } } }`;
const USERS_LIST = `query ($input: DiscoverUsersInput) { discoverUsers(input: $input) { status { success } items { username displayName avatar } pagination { totalCount } } }`;
const PROFILE = `query ($username: String!) { getUserProfile(username: $username) { status { success } profile { username followersCount uploadedVideosCount runningChallengesCount completedChallengesCount respectedVideosCount uploadedVideos { ${CARD} } runningChallenges { ${CARD} } completedChallenges { ${CARD} } respectedVideos { ${CARD} } } } }`;
/** What the web's profile tab asks (ProfileLists): one list and its count. */
const PROFILE_TAB = `query ($username: String!) { getUserProfile(username: $username) { status { success } profile { id runningChallengesCount runningChallenges(page: 1, itemsPerPage: 12) { ${CARD} } } } }`;
const ME = `{ getCurrentUserProfile { status { success } profile { username runningChallengesCount completedChallengesCount uploadedVideosCount respectedVideosCount } } }`;

const cases: { name: string; query: string; variables: Record<string, unknown>; field: string; visitor?: true }[] = [
  { name: 'discoverChallenges all (visitor)', query: DISCOVER, variables: { input: { list: 'all' } }, field: 'discoverChallenges', visitor: true },
  { name: 'discoverChallenges all', query: DISCOVER, variables: { input: { list: 'all' } }, field: 'discoverChallenges' },
  { name: 'discoverChallenges all, page 250', query: DISCOVER, variables: { input: { list: 'all', page: 250 } }, field: 'discoverChallenges' },
  { name: 'discoverChallenges solo', query: DISCOVER, variables: { input: { list: 'solo' } }, field: 'discoverChallenges' },
  { name: 'discoverChallenges duel', query: DISCOVER, variables: { input: { list: 'duel' } }, field: 'discoverChallenges' },
  { name: 'discoverChallenges following', query: DISCOVER, variables: { input: { list: 'following' } }, field: 'discoverChallenges' },
  { name: 'discoverUsers all', query: USERS_LIST, variables: { input: { list: 'all' } }, field: 'discoverUsers' },
  { name: 'discoverUsers following', query: USERS_LIST, variables: { input: { list: 'following' } }, field: 'discoverUsers' },
  { name: 'getUserProfile (4 lists, 4 counts)', query: PROFILE, variables: { username: busyName }, field: 'getUserProfile' },
  { name: 'getUserProfile (a tab: 1 list, its count)', query: PROFILE_TAB, variables: { username: busyName }, field: 'getUserProfile' },
  { name: 'getCurrentUserProfile (counts)', query: ME, variables: {}, field: 'getCurrentUserProfile' },
]; // prettier-ignore

const load = () =>
  loadavg()
    .map((value) => value.toFixed(1))
    .join(' ');
console.log(`through the gateway, sequential, ${REQUESTS} requests each after ${WARM_UP} warm-up`);
console.log(
  `(load average ${load()} on ${cpus().length} cores: figures are only meaningful on an idle machine)`,
);
let worstP95 = 0;
for (const item of cases) {
  const once = async () => {
    const t = performance.now();
    const response = await graphql(
      gateway.url,
      item.query,
      item.variables,
      item.visitor ? undefined : { token },
    );
    const status = (response.data?.[item.field] as { status?: { success: boolean } } | undefined)
      ?.status;
    if (!status?.success)
      throw new Error(`${item.name}: ${JSON.stringify(response).slice(0, 300)}`);
    return performance.now() - t;
  };
  for (let i = 0; i < WARM_UP; i += 1) await once();
  const times: number[] = [];
  const cpuBefore = process.cpuUsage();
  for (let i = 0; i < REQUESTS; i += 1) times.push(await once());
  const cpu = process.cpuUsage(cpuBefore);
  times.sort((a, b) => a - b);
  const p95 = percentile(times, 95);
  worstP95 = Math.max(worstP95, p95);
  // CPU time of this process (gateway and both subgraphs run in it; PostgreSQL's is not counted)
  // per request: what a request costs whatever else the machine is doing.
  const cpuMs = (cpu.user + cpu.system) / 1000 / REQUESTS;
  console.log(
    `  ${item.name.padEnd(44)} p50 ${fmt(percentile(times, 50)).padStart(9)}  p95 ${fmt(p95).padStart(9)}  cpu ${fmt(cpuMs).padStart(8)}/request`,
  );
}
console.log(`worst p95 ${fmt(worstP95)} (target under 50 ms); load average now ${load()}`);

started = performance.now();
await gateway.stop();
await Promise.all([identity.stop(), challenge.stop(), media.stop()]);
await deleteTopics(topicPrefix);
process.exit(0);
