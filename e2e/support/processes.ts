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
  freePort,
  inbox,
  uniqueTopicPrefix,
  type TestDatabase,
} from '@challenge/testing';

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
  /** The pid of its current run (a restart gives a new one). */
  pid: number;
  /** Everything it printed so far (stdout and stderr), over all its runs. */
  output(): string;
  /** What it printed on stderr that is not a JSON log line (Node's warnings, crashes). */
  stderrText(): string;
}

/** The processes by name: the six subgraphs (identity, wallet, ...) and `gateway`. */
export type ProcessName = (typeof SERVICES)[number] | 'gateway';

export interface ProcessPlatform {
  /** The gateway's /graphql. */
  gatewayUrl: string;
  /** Each subgraph's own /graphql (it serves requests that carry the gateway's credential). */
  serviceUrls: Record<string, string>;
  /** The site's origin, which the gateway's CSRF check expects on cookie requests. */
  origin: string;
  /** Kafka topic prefix of this platform. */
  topicPrefix: string;
  /** Each subgraph's own test database (as the test reaches it, not through any proxy). */
  databaseUrls: Record<(typeof SERVICES)[number], string>;
  processes: PlatformProcess[];
  /** The environment a process runs with (its internal URLs and tokens, for a test's own calls). */
  envOf(name: ProcessName): Record<string, string>;
  /** SIGKILL (or another signal) to one process; with `supervise` it is started again. */
  kill(name: ProcessName, signal?: NodeJS.Signals): void;
  /** Stops one process (SIGTERM, SIGKILL after 30 s); the supervisor leaves it stopped. */
  stopOne(name: ProcessName): Promise<number | string | null>;
  /** Starts a stopped process again and waits until it is ready. */
  startOne(name: ProcessName): Promise<void>;
  /** Resolves once every process runs and answers /readyz. */
  allReady(): Promise<void>;
  /** Starts of each process after its first (the supervisor's and startOne's). */
  restarts(): Record<string, number>;
  /** SIGTERM to each (gateway first); each one's exit code, then databases and topics removed. */
  stop(): Promise<Record<string, number | string | null>>;
}

export interface ProcessPlatformOptions {
  logLevel?: string;
  /** The gateway's RATE_LIMIT_* settings for this run (gateway/README.md). */
  limits?: Record<string, string>;
  /**
   * A process that exits while the platform runs is started again after `restartDelayMs`, as
   * Kubernetes restarts a container (one that stopOne stopped is left alone).
   */
  supervise?: boolean;
  restartDelayMs?: number;
  /** Changes one process's environment (a proxy's address, a webhook URL, ...). */
  env?: (name: ProcessName, env: Record<string, string>) => Record<string, string>;
}

const READY_TIMEOUT_MS = 180_000;

/**
 * Tests send everything from 127.0.0.1, and the per-address counters of the sign-in limits live
 * in the shared Redis: without these, runs would refuse each other's sign-ups. A benchmark gives
 * the limits its own run needs instead (`limits`).
 */
export const ONE_ADDRESS_LIMITS = {
  RATE_LIMIT_GRAPHQL: '1000000/1m',
  RATE_LIMIT_GRAPHQL_ADDRESS_CEILING: '1000000/1m',
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
  {
    logLevel = 'warn',
    limits = ONE_ADDRESS_LIMITS,
    supervise = false,
    restartDelayMs = 500,
    env: envFor = (_name, env) => env,
  }: ProcessPlatformOptions = {},
): Promise<ProcessPlatform> {
  const topicPrefix = uniqueTopicPrefix();
  const databases = new Map<string, TestDatabase>();
  const running = new Map<string, ChildProcess>();
  const processes: PlatformProcess[] = [];
  const specs = new Map<
    string,
    { workspace: string; env: Record<string, string>; ready: string }
  >();
  const starts: Record<string, number> = {};
  const held = new Set<string>();
  let stopping = false;

  const spawnOne = (name: string) => {
    const spec = specs.get(name)!;
    const { command, args, cwd } = launch(spec.workspace);
    const child = spawn(command, args, {
      cwd,
      // Only what the process needs: nothing of the test runner's own environment leaks in.
      env: { PATH: scriptEnv.PATH, HOME: scriptEnv.HOME, ...spec.env, LOG_LEVEL: logLevel },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let entry = processes.find((each) => each.name === name) as
      (PlatformProcess & { append(chunk: Buffer, err: boolean): void }) | undefined;
    if (!entry) {
      let output = '';
      let stderr = '';
      entry = {
        name,
        pid: child.pid!,
        output: () => output,
        stderrText: () =>
          stderr
            .split('\n')
            .filter((line) => line.trim() && !line.startsWith('{'))
            .join('\n'),
        append(chunk, err) {
          output += chunk;
          if (err) stderr += chunk;
        },
      };
      processes.push(entry);
    }
    const current = entry;
    current.pid = child.pid!;
    child.stdout!.on('data', (chunk: Buffer) => current.append(chunk, false));
    child.stderr!.on('data', (chunk: Buffer) => current.append(chunk, true));
    running.set(name, child);
    starts[name] = (starts[name] ?? 0) + 1;
    child.once('exit', () => {
      if (!supervise || stopping || held.has(name) || running.get(name) !== child) return;
      // The supervisor: started again, as a container whose process died.
      setTimeout(() => {
        if (!stopping && !held.has(name) && running.get(name) === child) spawnOne(name);
      }, restartDelayMs);
    });
    return {
      child,
      describe: () => `--- ${name} (${command} ${args.join(' ')}) ---\n${current.output()}`,
    };
  };

  const readyOf = async (name: string) => {
    const child = running.get(name)!;
    await waitReady(specs.get(name)!.ready, child, () => `--- ${name} ---`);
  };

  // A runner that dies before stop() (an uncaught error) leaves no process behind.
  const killAll = () => running.forEach((child) => child.kill('SIGKILL'));
  process.once('exit', killAll);

  const stop = async () => {
    stopping = true;
    process.removeListener('exit', killAll);
    const codes: Record<string, number | string | null> = {};
    for (const [name, child] of [...running].reverse()) codes[name] = await exitOf(child);
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
    for (const service of SERVICES) {
      specs.set(service, {
        workspace: `services/${service}`,
        env: envFor(service, serviceEnv(service, layout)),
        ready: `http://127.0.0.1:${ports[service]}/readyz`,
      });
    }
    specs.set('gateway', {
      workspace: 'gateway',
      env: envFor('gateway', {
        ...gatewayEnv(layout),
        ...limits,
        // Its own counters: another platform's (or `npm start`'s) never meet this one's limits.
        RATE_LIMIT_KEY_PREFIX: `${topicPrefix}gateway:`,
      }),
      ready: `http://127.0.0.1:${gatewayPort}/readyz`,
    });
    const started = SERVICES.map((service) => ({ service, ...spawnOne(service) }));
    await Promise.all(
      started.map(({ service, child, describe }) =>
        waitReady(`http://127.0.0.1:${ports[service]}/readyz`, child, describe),
      ),
    );
    const gateway = spawnOne('gateway');
    await waitReady(`http://127.0.0.1:${gatewayPort}/readyz`, gateway.child, gateway.describe);
    const origin = `http://127.0.0.1:${gatewayPort}`;
    return {
      gatewayUrl: `${origin}/graphql`,
      serviceUrls: Object.fromEntries(
        SERVICES.map((service) => [service, `http://127.0.0.1:${ports[service]}/graphql`]),
      ),
      origin,
      topicPrefix,
      databaseUrls: Object.fromEntries(
        SERVICES.map((service) => [service, databases.get(service)!.url]),
      ) as ProcessPlatform['databaseUrls'],
      processes,
      envOf: (name) => ({ ...specs.get(name)!.env }),
      kill(name, signal = 'SIGKILL') {
        running.get(name)?.kill(signal);
      },
      async stopOne(name) {
        held.add(name);
        return exitOf(running.get(name)!);
      },
      async startOne(name) {
        held.delete(name);
        const child = running.get(name);
        if (!child || child.exitCode !== null || child.signalCode !== null) spawnOne(name);
        await readyOf(name);
      },
      async allReady() {
        await eventually(async () => {
          for (const name of specs.keys()) {
            const child = running.get(name);
            if (!child || child.exitCode !== null || child.signalCode !== null)
              throw new Error(`${name} is not running`);
            const response = await fetch(specs.get(name)!.ready).catch(() => null);
            if (!response?.ok) throw new Error(`${name} is not ready`);
          }
        }, READY_TIMEOUT_MS);
      },
      restarts: () =>
        Object.fromEntries(Object.entries(starts).map(([name, count]) => [name, count - 1])),
      stop,
    };
  } catch (error) {
    await stop().catch(() => {});
    throw error;
  }
}

const STATUS = 'status { success identifier }';

/** What a browser does with the platform: one request, its session cookie kept. */
export function browserOf(platform: ProcessPlatform) {
  let cookie = '';
  const send = async (query: string, variables: Record<string, unknown> = {}) => {
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
  /** The session's token (the cookie's value), for a client that sends it as a bearer token. */
  const token = () => cookie.slice('session='.length);
  return Object.assign(send, { token });
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
  return {
    send,
    username,
    token: send.token(),
    status: created.verifyUser.status as { success: boolean },
  };
}

/** A process and all its descendants, as /proc lists them now (Linux). */
export function processTree(root: number): number[] {
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
  const tree: number[] = [];
  const pending = [root];
  while (pending.length) {
    const pid = pending.pop()!;
    tree.push(pid);
    pending.push(...(children.get(pid) ?? []));
  }
  return tree;
}

/** Resident memory of a process alone, and of it with its descendants, in MiB (Linux /proc). */
export function residentMemory(pid: number): { rss: number; peak: number; tree: number } {
  const status = (id: number) => readFileSync(`/proc/${id}/status`, 'utf8');
  const kib = (text: string, field: string) =>
    Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(text)?.[1] ?? 0);
  const own = status(pid);
  let tree = 0;
  for (const id of processTree(pid)) {
    try {
      tree += kib(status(id), 'VmRSS');
    } catch {
      // gone meanwhile
    }
  }
  const mib = (value: number) => Math.round((value / 1024) * 10) / 10;
  return { rss: mib(kib(own, 'VmRSS')), peak: mib(kib(own, 'VmHWM')), tree: mib(tree) };
}
