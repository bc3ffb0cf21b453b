// Visitors browsing, signed out: the home page, the discover lists, a challenge's page with its
// comments, and its owner's profile, as the web app asks them.
//   npm run load -- visitors                       (against npm start's platform)
//   k6 run -e BASE_URL=... -e PROFILE=smoke -e MAX_VUS=50 load-tests/visitors.js
import { sleep } from 'k6';
import {
  PROFILE,
  SUMMARY_TREND_STATS,
  gql,
  maxVus,
  page,
  scenario,
  thresholds,
} from './lib/common.js';

const CARD =
  'slug challengeName challengeReward status challengeType challengeLikesCount thumbnailUrl owner { username displayName avatar }';
const DISCOVER = `query ($input: DiscoverChallengesInput) { discoverChallenges(input: $input) { status { success } challenges { ${CARD} } pagination { totalCount totalPages } } }`;
const USERS = `query ($input: DiscoverUsersInput) { discoverUsers(input: $input) { status { success } items { username displayName avatar } pagination { totalCount } } }`;
const CHALLENGE = `query ($input: GetChallengeBySlugInput!) { getChallengeBySlug(input: $input) { status { success } challenge { slug challengeName challengeReward status owner { username } } } }`;
const COMMENTS = `query ($input: GetChallengeCommentsInput!) { getChallengeComments(input: $input) { status { success } } }`;
const PROFILE_QUERY = `query ($username: String!) { getUserProfile(username: $username) { status { success } profile { username followersCount runningChallengesCount runningChallenges(page: 1, itemsPerPage: 12) { ${CARD} } } } }`;

export const VISITOR_P95 = { page: 300, discover: 300, challenge: 300, profile: 300 };

export const options = {
  scenarios: { visitors: scenario(maxVus(50)) },
  thresholds: thresholds(VISITOR_P95),
  summaryTrendStats: SUMMARY_TREND_STATS,
};

const think = () => sleep(PROFILE === 'smoke' ? 0 : 1 + Math.random() * 2);

/** One visit: the home page and discover lists, a challenge, its owner's profile. */
export function visit() {
  page('/', 'page');
  const list = ['all', 'solo', 'duel'][Math.floor(Math.random() * 3)];
  const discovered = gql('discover', 'discoverChallenges', DISCOVER, { input: { list } });
  gql('discover', 'discoverUsers', USERS, { input: { list: 'all' } });
  think();
  const cards = (discovered && discovered.challenges) || [];
  if (cards.length === 0) return; // an empty platform: nothing to open
  const card = cards[Math.floor(Math.random() * cards.length)];
  page(`/challenge/${card.slug}/detail`, 'page');
  gql('challenge', 'getChallengeBySlug', CHALLENGE, { input: { slug: card.slug } });
  gql('challenge', 'getChallengeComments', COMMENTS, { input: { slug: card.slug } });
  think();
  gql('profile', 'getUserProfile', PROFILE_QUERY, { username: card.owner.username });
  think();
}

export default function () {
  visit();
}
