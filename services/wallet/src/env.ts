import { loadEnv, subgraphEnv } from '@challenge/kit';

/** The one place wallet reads its environment. */
export const envSchema = subgraphEnv;
export type WalletEnv = ReturnType<typeof envSchema.parse>;

export const readEnv = (): WalletEnv => loadEnv(envSchema, process.env);
