import { startRuntime } from '@challenge/kit';
import { buildApp } from './app.ts';
import {
  challengeOptions,
  identityOptions,
  processingOptions,
  readEnv,
  storageConfig,
  uploadOptions,
} from './env.ts';

const env = readEnv();
const runtime = await startRuntime('media', env);
runtime.lifecycle.installSignalHandlers();
const app = await buildApp(runtime, env.DATABASE_URL, storageConfig(env), {
  processing: processingOptions(env),
  ...uploadOptions(env),
  identity: identityOptions(env),
  challenge: challengeOptions(env),
});
await app.subgraph.listen(env.PORT, env.HOST);
