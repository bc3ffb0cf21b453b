/** The challenge page, for the routes (one chunk). */
export { ChallengeDetailPage } from './ChallengeDetailPage';
