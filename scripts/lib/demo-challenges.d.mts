/** Types of demo-challenges.mjs, for the e2e test that runs the seed against the platform. */
export interface DemoChallenge {
  owner: string;
  challenged: string;
  leaveIn: 'open' | 'accepted' | 'refused' | 'cancelled';
  reason?: string;
  input: { challengeName: string; challengeReward: number; [field: string]: unknown };
}
export declare const DEMO_CHALLENGES: DemoChallenge[];
export declare function seedDemoChallenges(options: {
  gatewayUrl: string;
  accounts: { username: string; token: string }[];
}): Promise<void>;
