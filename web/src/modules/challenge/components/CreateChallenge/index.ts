/** The create flow's pages, for the routes (one chunk). */
export { CreateChallengeLayout } from './CreateChallengeLayout';
export { CreateChallengeStep1Page } from './CreateChallengeStep1Page';
export { CreateChallengeStep2Page } from './CreateChallengeStep2Page';
