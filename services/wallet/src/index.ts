import { startRuntime } from '@challenge/kit';
import { buildApp } from './app.ts';
import { readEnv, walletConfig } from './env.ts';

const env = readEnv();
const runtime = await startRuntime('wallet', env);
runtime.lifecycle.installSignalHandlers();
const app = await buildApp(runtime, walletConfig(env));
await app.subgraph.listen(env.PORT, env.HOST);
