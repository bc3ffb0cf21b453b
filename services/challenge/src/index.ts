import { startRuntime } from '@challenge/kit';
import { buildApp } from './app.ts';
import { challengeOptions, readEnv } from './env.ts';

const env = readEnv();
const runtime = await startRuntime('challenge', env);
runtime.lifecycle.installSignalHandlers();
const app = await buildApp(runtime, env.DATABASE_URL, challengeOptions(env));
await app.subgraph.listen(env.PORT, env.HOST);
