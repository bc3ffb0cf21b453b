import { startRuntime } from '@challenge/kit';
import { buildApp } from './app.ts';
import { moderationOptions, readEnv } from './env.ts';

const env = readEnv();
const runtime = await startRuntime('moderation', env);
runtime.lifecycle.installSignalHandlers();
const app = await buildApp(runtime, env.DATABASE_URL, moderationOptions(env));
await app.subgraph.listen(env.PORT, env.HOST);
