import { loadEnv, subgraphEnv } from '@challenge/kit';

/** The one place moderation reads its environment. */
export const envSchema = subgraphEnv;
export type ModerationEnv = ReturnType<typeof envSchema.parse>;

export const readEnv = (): ModerationEnv => loadEnv(envSchema, process.env);
