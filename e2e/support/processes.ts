import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { BUNDLE_COMMAND, gatewayEnv, serviceEnv } from '../../scripts/lib/platform.mjs';
import { env as scriptEnv, repoRoot } from '../../scripts/lib/stack-config.mjs';
import {
  SERVICES,
  createTestDatabase,
  deleteTopics,
  eventually,
  inbox,
  uniqueTopicPrefix,
  type TestDatabase,
} from '@challenge/testing';
import { freePort } from './money.ts';

/**
 * The platform as separate processes, the way `npm start` and the images run it: six subgraphs
 * and the gateway, each started by a command (its production bundle, or its sources through
 * tsx), with the environment npm start gives it (scripts/lib/platform.mjs), but on free ports,
 * its own test databases and a topic prefix, so that it shares the stack with anything else.
 */

/** How one workspace (services/<name> or gateway) is started. */
export type Launcher = (workspace: string) => { command: string; args: string[]; cwd: string };

/** `node dist/index.js` in `root` (a production tree, or the repository), as npm start runs it. */
export const bundleLauncher =
  (root: string, node = process.execPath): Launcher =>
  (workspace) => ({ command: node, args: BUNDLE_COMMAND, cwd: path.join(root, workspace) });

/** The sources through tsx in a checkout (this one by default), as every process ran before the bundles. */
export const tsxLauncher =
  (node: string, checkout = repoRoot): Launcher =>
  (workspace) => ({
    command: node,
    args: ['--import', 'tsx', 'src/index.ts'],
    cwd: path.join(checkout, workspace),
  });

export interface PlatformProcess {
  name: string;
  pid: number;
  /** Everything it printed so far (stdout and stderr). */
  output(): string;
  /** What it printed on stderr that is not a JSON log line (Node's warnings, crashes). */
  stderrText(): string;
}

export interface ProcessPlatform {
  /** The gateway's /graphql. */
  gatewayUrl: string;
  /** The site's origin, which the gateway's CSRF check expects on cookie requests. */
  origin: string;
  processes: PlatformProcess[];
  /** SIGTERM to each (gateway first); each one's exit code, then databases and topics removed. */
  stop(): Promise<Record<string, number | string | null>>;
}

const READY_TIMEOUT_MS = 180_000;

/**
 * Tests and benchmarks send everything from 127.0.0.1, and the per-address counters of the
 * sign-in limits live in the shared Redis: without these, runs would refuse each other's sign-ups.
 */
const ONE_ADDRESS_LIMITS = {
  RATE_LIMIT_GRAPHQL: '1000000/1m',
  RATE_LIMIT_REQUEST_LOGIN_LINK: '-/-/1m',
  RATE_LIMIT_VERIFY_USER: '-/-/1m',
};

async function waitReady(url: string, child: ChildProcess, describe: () => string) {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`exited (${child.exitCode ?? child.signalCode}) before ready\n${describe()}`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline)
      throw new Error(`not ready after ${READY_TIMEOUT_MS} ms\n${describe()}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

function exitOf(child: ChildProcess, timeoutMs = 30_000): Promise<number | string | null> {
  if (child.exitCode !== null || child.signalCode !== null)
    return Promise.resolve(child.exitCode ?? child.signalCode);
  return new Promise((resolve) => {
    const killer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.once('exit', (code, signal) => {
      clearTimeout(killer);
      resolve(code ?? signal);
    });
    child.kill('SIGTERM');
  });
}

export async function startProcessPlatform(
  launch: Launcher,
  { logLevel = 'warn' }: { logLevel?: string } = {},
): Promise<ProcessPlatform> {
  const topicPrefix = uniqueTopicPrefix();
  const databases = new Map<string, TestDatabase>();
  const children: { name: string; child: ChildProcess }[] = [];
  const processes: PlatformProcess[] = [];

  const run = (name: string, workspace: string, env: Record<string, string>) => {
    const { command, args, cwd } = launch(workspace);
    const child = spawn(command, args, {
      cwd,
      // Only what the process needs: nothing of the test runner's own environment leaks in.
      env: { PATH: scriptEnv.PATH, HOME: scriptEnv.HOME, ...env, LOG_LEVEL: logLevel },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    let stderr = '';
    child.stdout!.on('data', (chunk: Buffer) => (output += chunk));
    child.stderr!.on('data', (chunk: Buffer) => {
      output += chunk;
      stderr += chunk;
    });
    children.push({ name, child });
    processes.push({
      name,
      pid: child.pid!,
      output: () => output,
      stderrText: () =>
        stderr
          .split('\n')
          .filter((line) => line.trim() && !line.startsWith('{'))
          .join('\n'),
    });
    return { child, describe: () => `--- ${name} (${command} ${args.join(' ')}) ---\n${output}` };
  };

  // A runner that dies before stop() (an uncaught error) leaves no process behind.
  const killAll = () => children.forEach(({ child }) => child.kill('SIGKILL'));
  process.once('exit', killAll);

  const stop = async () => {
    process.removeListener('exit', killAll);
    const codes: Record<string, number | string | null> = {};
    for (const { name, child } of [...children].reverse()) codes[name] = await exitOf(child);
    await Promise.all([...databases.values()].map((database) => database.drop()));
    await deleteTopics(topicPrefix);
    return codes;
  };

  try {
    for (const service of SERVICES) databases.set(service, await createTestDatabase(service));
    const ports: Record<string, number> = {};
    for (const service of SERVICES) ports[service] = await freePort();
    const gatewayPort = await freePort();
    const layout = {
      gatewayPort,
      ports,
      databaseUrl: (service: string) => databases.get(service)!.url,
      topicPrefix,
      s3Bucket: 'challenge-media-test',
    };
    const started = SERVICES.map((service) => ({
      service,
      ...run(service, `services/${service}`, serviceEnv(service, layout)),
    }));
    await Promise.all(
      started.map(({ service, child, describe }) =>
        waitReady(`http://127.0.0.1:${ports[service]}/readyz`, child, describe),
      ),
    );
    const gateway = run('gateway', 'gateway', {
      ...gatewayEnv(layout),
      ...ONE_ADDRESS_LIMITS,
    });
    await waitReady(`http://127.0.0.1:${gatewayPort}/readyz`, gateway.child, gateway.describe);
    const origin = `http://127.0.0.1:${gatewayPort}`;
    return { gatewayUrl: `${origin}/graphql`, origin, processes, stop };
  } catch (error) {
    await stop().catch(() => {});
    throw error;
  }
}

const STATUS = 'status { success identifier }';

/** What a browser does with the platform: one request, its session cookie kept. */
export function browserOf(platform: ProcessPlatform) {
  let cookie = '';
  return async (query: string, variables: Record<string, unknown> = {}) => {
    const response = await fetch(platform.gatewayUrl, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        origin: platform.origin,
        ...(cookie ? { cookie } : {}),
      },
      body: JSON.stringify({ query, variables }),
    });
    const session = response.headers.get('set-cookie');
    if (session?.startsWith('session=')) cookie = session.split(';')[0]!;
    if (response.status !== 200) throw new Error(`the gateway answered ${response.status}`);
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- callers assert the shapes
    return ((await response.json()) as { data: any }).data;
  };
}

/**
 * Signs a new person up the way the web app does: a log-in link requested, the code read from
 * the e-mail notification sent, the account made with it. Returns their browser, signed in.
 */
export async function signUp(platform: ProcessPlatform) {
  const send = browserOf(platform);
  const unique = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  const email = `bundle-${unique}@example.test`;
  const requested = await send(
    `mutation($input: RequestLoginLinkInput!) { requestLoginLink(input: $input) { ${STATUS} } }`,
    { input: { email, originUrl: '/' } },
  );
  if (!requested.requestLoginLink.status.success) throw new Error('requestLoginLink refused');
  const mail = await eventually(async () => {
    const [latest] = await inbox(email);
    if (!latest) throw new Error(`no mail for ${email} yet`);
    return latest;
  });
  const username = `bundle_${unique}`;
  const created = await send(
    `mutation($input: VerifyUserInput!) { verifyUser(input: $input) { ${STATUS} } }`,
    {
      input: {
        email,
        code: mail.text.match(/\b\d{6}\b/)![0],
        username,
        password: 'Sturdy-Pass-42',
        repeatPassword: 'Sturdy-Pass-42',
        birthday: '1990-01-01',
        acceptTerms: true,
      },
    },
  );
  return { send, username, status: created.verifyUser.status as { success: boolean } };
}

/** Resident memory of a process alone, and of it with its descendants, in MiB (Linux /proc). */
export function residentMemory(pid: number): { rss: number; peak: number; tree: number } {
  const status = (id: number) => readFileSync(`/proc/${id}/status`, 'utf8');
  const kib = (text: string, field: string) =>
    Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(text)?.[1] ?? 0);
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(parent, [...(children.get(parent) ?? []), Number(entry)]);
    } catch {
      // gone meanwhile
    }
  }
  const own = status(pid);
  let tree = 0;
  const visit = (id: number) => {
    try {
      tree += kib(status(id), 'VmRSS');
    } catch {
      return;
    }
    for (const child of children.get(id) ?? []) visit(child);
  };
  visit(pid);
  const mib = (value: number) => Math.round((value / 1024) * 10) / 10;
  return { rss: mib(kib(own, 'VmRSS')), peak: mib(kib(own, 'VmHWM')), tree: mib(tree) };
}
