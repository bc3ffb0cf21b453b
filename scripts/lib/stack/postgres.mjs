/**
 * PostgreSQL of the local stack: a cluster of Debian's server on 127.0.0.1:54329 (superuser platform/platform), tuned for tests.
 * The cluster lives in .local/postgres/data. As root the server runs as the `postgres` system user; when that user cannot
 * traverse the checkout (e.g. a clone under /root), the cluster goes to <cacheDir>/postgres-data-<hash of .local path>,
 * or failing that to ~postgres/challenge-platform/<hash>; `status` prints where it is.
 */
import { spawn, spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { cacheDir, localDir, logsDir, postgres as cfg, runDir } from '../stack-config.mjs';
import {
  aptInstall,
  ensureDir,
  errorWithLog,
  isAlive,
  isRoot,
  logFile,
  pidFile,
  reporter,
  run,
  serviceStatus,
  startService,
  stopService,
} from './helpers.mjs';

const name = 'postgres';
const match = 'postgres';
export const address = `${cfg.host}:${cfg.port}`;

/** bin folder of the newest server under /usr/lib/postgresql, or null. */
export function binDir() {
  const root = '/usr/lib/postgresql';
  const versions = fs.existsSync(root) ? fs.readdirSync(root).filter((v) => /^\d+$/.test(v)) : [];
  const usable = versions
    .filter((v) => fs.existsSync(path.join(root, v, 'bin', 'postgres')))
    .sort((a, b) => b - a);
  return usable.length ? path.join(root, usable[0], 'bin') : null;
}

function systemUser() {
  const line = fs
    .readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((l) => l.startsWith('postgres:'));
  if (!line)
    throw new Error(
      'postgres: running as root needs the `postgres` system user (created by the Debian package)',
    );
  const [, , uid, gid, , home] = line.split(':');
  return { uid: Number(uid), gid: Number(gid), home };
}

/** Command line that runs `cmd` as the postgres system user when we are root. */
const asPostgres = (cmd, args) =>
  isRoot ? ['runuser', ['-u', 'postgres', '--', cmd, ...args]] : [cmd, args];
const postgresCanEnter = (dir) =>
  spawnSync('runuser', ['-u', 'postgres', '--', 'test', '-x', dir]).status === 0;

let base;
/** The folder holding the cluster (data/) and its stack.conf. */
export function clusterBase() {
  if (base) return base;
  const preferred = path.join(localDir, 'postgres');
  if (!isRoot) return (base = ensureDir(preferred));
  const hash = crypto.createHash('sha256').update(localDir).digest('hex').slice(0, 12);
  for (const candidate of [preferred, path.join(cacheDir, `postgres-data-${hash}`)]) {
    if (postgresCanEnter(ensureDir(path.dirname(candidate))))
      return (base = ensureDir(candidate, 0o755));
  }
  const { uid, gid, home } = systemUser();
  base = ensureDir(path.join(home, 'challenge-platform', hash), 0o755);
  fs.chownSync(path.dirname(base), uid, gid);
  return base;
}

const dataDir = () => path.join(clusterBase(), 'data');

export async function ensureInstalled() {
  if (!binDir()) await aptInstall(['postgresql']);
  if (!binDir())
    throw new Error(
      'postgres: no server found under /usr/lib/postgresql after apt-get install postgresql',
    );
}

/** A real connection as the platform superuser over TCP (password auth). */
export async function isRunning() {
  const client = new pg.Client({
    ...cfg,
    database: cfg.adminDatabase,
    connectionTimeoutMillis: 2000,
  });
  client.on('error', () => {});
  try {
    await client.connect();
    await client.query('select 1');
    await client.end();
    return true;
  } catch {
    client.end().catch(() => {});
    return false;
  }
}

/** initdb on first start: superuser platform with a password, trust only on the unix socket, scram-sha-256 over TCP. */
async function initCluster() {
  const data = dataDir();
  if (fs.existsSync(path.join(data, 'PG_VERSION'))) return;
  reporter.say(`postgres  initialising a new cluster in ${data}`);
  const tmp = ensureDir(`${data}.init-${process.pid}`, 0o700);
  const pwfile = path.join(clusterBase(), `pwfile-${process.pid}`);
  fs.writeFileSync(pwfile, `${cfg.password}\n`, { mode: 0o600 });
  if (isRoot) {
    const { uid, gid } = systemUser();
    fs.chownSync(tmp, uid, gid);
    fs.chownSync(pwfile, uid, gid);
  }
  const args = [
    '-D',
    tmp,
    '-U',
    cfg.user,
    `--pwfile=${pwfile}`,
    '--auth-local=trust',
    '--auth-host=scram-sha-256',
  ];
  try {
    await run(
      ...asPostgres(path.join(binDir(), 'initdb'), [
        ...args,
        '-E',
        'UTF8',
        '--locale=C.UTF-8',
        '--no-sync',
        '--no-instructions',
      ]),
      {
        cwd: clusterBase(),
        logName: name,
      },
    );
  } finally {
    fs.rmSync(pwfile, { force: true });
  }
  fs.appendFileSync(
    path.join(tmp, 'postgresql.conf'),
    "\n# Local stack settings (rewritten on every start)\ninclude 'stack.conf'\n",
  );
  fs.rmSync(data, { recursive: true, force: true });
  fs.renameSync(tmp, data);
}

function writeStackConf() {
  const data = dataDir();
  // The unix socket lives in the data folder; skip it when the path is too long for a socket address.
  const socketDir = `${data}/.s.PGSQL.${cfg.port}`.length < 100 ? data : '';
  const settings = {
    listen_addresses: `'${cfg.host}'`,
    port: cfg.port,
    unix_socket_directories: `'${socketDir}'`,
    max_connections: 300,
    shared_buffers: '128MB',
    fsync: 'off',
    synchronous_commit: 'off',
    full_page_writes: 'off',
  };
  fs.writeFileSync(
    path.join(data, 'stack.conf'),
    `# Generated by scripts/lib/stack/postgres.mjs on every start.\n${Object.entries(settings)
      .map(([k, v]) => `${k} = ${v}`)
      .join('\n')}\n`,
  );
}

const postmasterPid = () => {
  try {
    return (
      Number.parseInt(fs.readFileSync(path.join(dataDir(), 'postmaster.pid'), 'utf8'), 10) || null
    );
  } catch {
    return null;
  }
};

/** pg_ctl start -w: forks the postmaster (which keeps our log file as its output) and waits until it accepts connections. */
async function launch() {
  await initCluster();
  writeStackConf();
  ensureDir(logsDir);
  const fd = fs.openSync(logFile(name), 'a');
  fs.writeSync(fd, `\n=== ${new Date().toISOString()} starting: pg_ctl start -D ${dataDir()}\n`);
  const [cmd, args] = asPostgres(path.join(binDir(), 'pg_ctl'), [
    '-D',
    dataDir(),
    '-w',
    '-t',
    '60',
    'start',
  ]);
  const code = await new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: clusterBase(), stdio: ['ignore', fd, fd] });
    child.on('error', () => resolve(-1));
    child.on('exit', (c) => resolve(c));
  });
  fs.closeSync(fd);
  const pid = postmasterPid();
  if (code !== 0 || !pid) throw errorWithLog(name, `pg_ctl start failed (exit ${code})`);
  ensureDir(runDir);
  fs.writeFileSync(pidFile(name), `${pid}\n`);
  return { pid, isDead: () => (isAlive(pid) ? null : `postmaster ${pid} exited`) };
}

export function start() {
  return startService({
    name,
    match,
    port: cfg.port,
    healthy: isRunning,
    timeoutMs: 30_000,
    launch,
  });
}

/** SIGINT = PostgreSQL's fast shutdown. */
export const stop = () => stopService(name, { match, signal: 'SIGINT' });

export async function status() {
  const s = await serviceStatus({ name, address, healthy: isRunning, match });
  const data = dataDir();
  return data.startsWith(localDir) ? s : { ...s, detail: `data ${data}` };
}
