import { loadEnv, subgraphEnv } from '@challenge/kit';

/** The one place challenge reads its environment. */
export const envSchema = subgraphEnv;
export type ChallengeEnv = ReturnType<typeof envSchema.parse>;

export const readEnv = (): ChallengeEnv => loadEnv(envSchema, process.env);
