import { jwtSignEnv, loadEnv, subgraphEnv } from '@challenge/kit';

/** The one place identity reads its environment. */
export const envSchema = subgraphEnv.extend({ ...jwtSignEnv.shape });
export type IdentityEnv = ReturnType<typeof envSchema.parse>;

export const readEnv = (): IdentityEnv => loadEnv(envSchema, process.env);
