import { startRuntime } from '@challenge/kit';
import { buildApp } from './app.ts';
import { adminEmails, linkConfig, mailerConfig, readEnv } from './env.ts';

const env = readEnv();
const runtime = await startRuntime('notification', env);
runtime.lifecycle.installSignalHandlers();
const app = await buildApp(runtime, env.DATABASE_URL, {
  mail: mailerConfig(env),
  links: linkConfig(env),
  adminEmails: adminEmails(env),
});
await app.subgraph.listen(env.PORT, env.HOST);
