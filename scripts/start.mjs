/**
 * `npm start`: the whole platform on this machine. Installs what is missing, starts the stack,
 * builds (Prisma clients, supergraph, web, and the production bundles: turbo rebuilds what
 * changed), migrates, seeds demo data, starts the six subgraphs and the gateway from their
 * bundles, as their images do, and prints the one URL. Ctrl-C (or SIGTERM) stops every process it
 * started.
 */
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { bootstrap } from './lib/bootstrap.mjs';

await bootstrap();
const { localDir, repoRoot, stackUrls } = await import('./lib/stack-config.mjs');
const { ensureStack, stopStack } = await import('./lib/stack/index.mjs');
const { applyMigrations, ensureDatabase } = await import('./lib/prisma-migrations.mjs');
const { BUNDLE_COMMAND, SERVICES, SERVICE_PORTS, GATEWAY_PORT, gatewayEnv, publicUrl, serviceEnv } =
  await import('./lib/platform.mjs');
const { seedDemoMoney } = await import('./lib/demo-money.mjs');
const { seedDemoChallenges } = await import('./lib/demo-challenges.mjs');

const children = [];
let stackStartedHere = [];
let stopping = false;

async function stopAll(code) {
  if (stopping) return;
  stopping = true;
  console.log('\nStopping the platform...');
  await Promise.all(
    children.map(
      (child) =>
        new Promise((resolve) => {
          if (child.exitCode !== null) return resolve();
          const killer = setTimeout(() => child.kill('SIGKILL'), 15_000);
          child.once('exit', () => {
            clearTimeout(killer);
            resolve();
          });
          child.kill('SIGTERM');
        }),
    ),
  );
  if (stackStartedHere.length) await stopStack({ only: stackStartedHere });
  console.log('Stopped.');
  process.exit(code);
}
process.on('SIGINT', () => void stopAll(0));
process.on('SIGTERM', () => void stopAll(0));

function step(label, command, args, options = {}) {
  console.log(`\n> ${label}`);
  const result = spawnSync(command, args, { cwd: repoRoot, stdio: 'inherit', ...options });
  if (result.status !== 0) {
    console.error(`${label} failed.`);
    void stopAll(1);
    throw new Error(`${label} failed`);
  }
}

/** Pino JSON lines become `name  message`; anything else passes through. */
function prefixOutput(name, stream, sink) {
  let buffer = '';
  stream.on('data', (chunk) => {
    buffer += chunk;
    const lines = buffer.split('\n');
    buffer = lines.pop();
    for (const line of lines) {
      let text = line;
      try {
        const entry = JSON.parse(line);
        const level = {
          10: 'trace',
          20: 'debug',
          30: 'info',
          40: 'WARN',
          50: 'ERROR',
          60: 'FATAL',
        }[entry.level];
        text = `${level === 'info' ? '' : `${level} `}${entry.msg ?? ''}${entry.err ? ` ${entry.err.message}` : ''}`;
      } catch {
        // not JSON: print as it is
      }
      sink.write(`${name.padEnd(12)} | ${text}\n`);
    }
  });
}

/** Runs a workspace's production bundle (dist/index.js), as its image does. */
function launch(name, cwd, env) {
  const child = spawn(process.execPath, BUNDLE_COMMAND, {
    cwd,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  prefixOutput(name, child.stdout, process.stdout);
  prefixOutput(name, child.stderr, process.stderr);
  child.on('exit', (code, signal) => {
    if (!stopping) {
      console.error(`${name} exited (${signal ?? code}); stopping everything.`);
      void stopAll(1);
    }
  });
  children.push(child);
}

async function waitReady(name, url, timeoutMs = 90_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
  throw new Error(`${name} did not become ready at ${url}`);
}

const started = Date.now();
const stack = await ensureStack();
stackStartedHere = stack.components.filter((c) => !c.reused && c.pid).map((c) => c.name);

step(
  'Build (Prisma clients, the bundles of the services and the gateway, supergraph, web)',
  'npx',
  ['turbo', 'run', 'build', 'generate', '--output-logs=errors-only'],
  {
    env: { ...process.env, TURBO_TELEMETRY_DISABLED: '1' },
  },
);

console.log('\n> Migrate');
const urls = stackUrls();
for (const service of SERVICES) {
  await ensureDatabase(urls.postgresAdminUrl, service);
  const applied = await applyMigrations(
    path.join(repoRoot, 'services', service),
    urls.databaseUrl(service),
  );
  console.log(
    `${service.padEnd(13)} ${applied.length ? `applied ${applied.join(', ')}` : 'up to date'}`,
  );
}

step(
  'Seed demo data',
  process.execPath,
  ['--import', 'tsx', 'src/demo-seed.ts', path.join(localDir, 'demo-users.json')],
  {
    cwd: path.join(repoRoot, 'services', 'identity'),
    env: { ...process.env, ...serviceEnv('identity'), LOG_LEVEL: 'warn' },
  },
);

console.log('\n> Start services');
for (const service of SERVICES)
  launch(service, path.join(repoRoot, 'services', service), serviceEnv(service));
await Promise.all(SERVICES.map((s) => waitReady(s, `http://127.0.0.1:${SERVICE_PORTS[s]}/readyz`)));
launch('gateway', path.join(repoRoot, 'gateway'), gatewayEnv());
await waitReady('gateway', `http://127.0.0.1:${GATEWAY_PORT}/readyz`);

console.log('\n> Demo money');
const demoAccounts = JSON.parse(readFileSync(path.join(localDir, 'demo-users.json'), 'utf8'));
await seedDemoMoney({ gatewayUrl: publicUrl, accounts: demoAccounts }).catch((error) =>
  console.warn(`demo money skipped: ${error.message}`),
);
console.log('\n> Demo challenges');
await seedDemoChallenges({ gatewayUrl: publicUrl, accounts: demoAccounts }).catch((error) =>
  console.warn(`demo challenges skipped: ${error.message}`),
);

console.log(`\nThe platform is up in ${((Date.now() - started) / 1000).toFixed(0)}s.`);
console.log(`Demo logins and API tokens: .local/demo-users.json   Inbox: ${urls.smtpCatcherHttp}`);
console.log(`\n  ${publicUrl}\n`);
console.log('Press Ctrl-C to stop everything.');
