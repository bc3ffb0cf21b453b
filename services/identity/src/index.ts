import { startRuntime } from '@challenge/kit';
import { buildApp } from './app.ts';
import { readEnv } from './env.ts';

const env = readEnv();
const runtime = await startRuntime('identity', env);
runtime.lifecycle.installSignalHandlers();
const app = await buildApp(runtime, {
  databaseUrl: env.DATABASE_URL,
  jwtPrivateKey: env.JWT_PRIVATE_KEY,
  jwtIssuer: env.JWT_ISSUER,
  jwtTtlSeconds: env.JWT_TTL_SECONDS,
  publicOrigin: env.PUBLIC_ORIGIN,
  authHashSecret: env.AUTH_HASH_SECRET,
  internalApiToken: env.INTERNAL_API_TOKEN,
});
await app.subgraph.listen(env.PORT, env.HOST);
