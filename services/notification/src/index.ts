import { startRuntime } from '@challenge/kit';
import { buildApp } from './app.ts';
import { linkConfig, mailerConfig, readEnv } from './env.ts';

const env = readEnv();
const runtime = await startRuntime('notification', env);
runtime.lifecycle.installSignalHandlers();
const app = await buildApp(runtime, env.DATABASE_URL, {
  mail: mailerConfig(env),
  links: linkConfig(env),
});
await app.subgraph.listen(env.PORT, env.HOST);
