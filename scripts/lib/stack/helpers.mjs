/** Shared helpers of the stack modules: detached processes with pid and log files, waits with timeouts, apt installs, probes. */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { childEnv, host, logsDir, repoRoot, runDir } from '../stack-config.mjs';

export const isRoot = process.getuid?.() === 0;
export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
export const logFile = (name) => path.join(logsDir, `${name}.log`);
export const pidFile = (name) => path.join(runDir, `${name}.pid`);

/** Progress lines from provisioning ("installing ..."); index.mjs silences them when quiet. */
export const reporter = { quiet: false, say: (line) => reporter.quiet || console.log(line) };

export function ensureDir(dir, mode) {
  fs.mkdirSync(dir, { recursive: true });
  if (mode !== undefined) fs.chmodSync(dir, mode);
  return dir;
}

/** Absolute path of a command on PATH, or null. */
export function commandPath(cmd) {
  const r = spawnSync('sh', ['-c', 'command -v "$1"', 'sh', cmd], { encoding: 'utf8' });
  return r.status === 0 && r.stdout.trim() ? r.stdout.trim() : null;
}

/** The last `lines` lines of a (possibly large) log file. */
export function tail(file, lines = 30) {
  try {
    const fd = fs.openSync(file, 'r');
    const size = fs.fstatSync(fd).size;
    const length = Math.min(size, 64 * 1024);
    const buf = Buffer.alloc(length);
    fs.readSync(fd, buf, 0, length, size - length);
    fs.closeSync(fd);
    return buf.toString('utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log yet)';
  }
}

export function errorWithLog(name, message, file = logFile(name)) {
  return new Error(
    `${name}: ${message}\n--- last 30 lines of ${file} ---\n${tail(file)}\n--- end of ${file} ---`,
  );
}

/** Opens .local/logs/<name>.log for appending; a log over 50 MB is first moved to <name>.log.1. */
function openLog(name) {
  ensureDir(logsDir);
  const file = logFile(name);
  if (fs.existsSync(file) && fs.statSync(file).size > 50 * 1024 * 1024)
    fs.renameSync(file, `${file}.1`);
  return fs.openSync(file, 'a');
}

/** Starts a long-running process in its own session, output appended to .local/logs/<name>.log, pid in .local/run/<name>.pid. */
export function spawnDetached(name, cmd, args, { cwd, env } = {}) {
  ensureDir(runDir);
  const fd = openLog(name);
  fs.writeSync(fd, `\n=== ${new Date().toISOString()} starting: ${cmd} ${args.join(' ')}\n`);
  const child = spawn(cmd, args, {
    cwd,
    env: childEnv(env),
    detached: true,
    stdio: ['ignore', fd, fd],
  });
  fs.closeSync(fd);
  const proc = {
    pid: child.pid,
    exited: null,
    isDead: () => (proc.exited !== null ? `exited (${proc.exited})` : null),
  };
  child.on('exit', (code, signal) => (proc.exited = signal ?? code));
  child.on('error', (err) => (proc.exited = err.message));
  child.unref();
  if (child.pid) fs.writeFileSync(pidFile(name), `${child.pid}\n`);
  return proc;
}

/** Runs a command to completion; its output goes to .local/logs/<logName>.log. Rejects with the log's tail on failure. */
export function run(cmd, args, { cwd, env, logName } = {}) {
  const fd = openLog(logName);
  fs.writeSync(fd, `\n=== ${new Date().toISOString()} running: ${cmd} ${args.join(' ')}\n`);
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd, env: childEnv(env), stdio: ['ignore', fd, fd] });
    fs.closeSync(fd);
    child.on('error', (err) =>
      reject(errorWithLog(logName, `could not run ${cmd}: ${err.message}`)),
    );
    child.on('exit', (code, signal) =>
      code === 0
        ? resolve()
        : reject(
            errorWithLog(logName, `${cmd} ${args.join(' ')} failed (${signal ?? `exit ${code}`})`),
          ),
    );
  });
}

/** True when the process exists and is not a zombie. */
export function isAlive(pid) {
  try {
    process.kill(pid, 0);
  } catch (err) {
    return err.code === 'EPERM';
  }
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return true;
  }
}

/** The pid recorded for `name` if that process is still alive and its command line contains `match`. */
export function readPid(name, match) {
  let pid;
  try {
    pid = Number.parseInt(fs.readFileSync(pidFile(name), 'utf8'), 10);
  } catch {
    return null;
  }
  if (!pid || !isAlive(pid)) return null;
  if (match) {
    try {
      if (!fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(match)) return null;
    } catch {
      /* no /proc: trust the pid file */
    }
  }
  return pid;
}

/** Polls `check` (truthy = done) until it succeeds, the process dies (`isDead` returns a reason) or the timeout passes. */
export async function waitFor(
  name,
  check,
  { timeoutMs, intervalMs = 250, isDead, log = logFile(name) },
) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check().catch(() => false)) return;
    const dead = isDead?.();
    if (dead) throw errorWithLog(name, `${dead} before becoming healthy`, log);
    if (Date.now() > deadline)
      throw errorWithLog(name, `not healthy after ${timeoutMs / 1000}s`, log);
    await sleep(intervalMs);
  }
}

export function waitForPort(name, port, opts) {
  return waitFor(name, () => portOpen(port), opts);
}

/** True when something accepts TCP connections on host:port. */
export function portOpen(port, address = host, timeoutMs = 1000) {
  return new Promise((resolve) => {
    const socket = net.connect({ host: address, port });
    const done = (open) => {
      socket.destroy();
      resolve(open);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

/** GET a URL; resolves { status, headers, body } or rejects. */
export function httpGet(url, timeoutMs = 2000) {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { timeout: timeoutMs }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body }));
    });
    req.on('timeout', () => req.destroy(new Error(`timeout after ${timeoutMs}ms`)));
    req.on('error', reject);
  });
}

/**
 * Starts a long-running component unless a healthy one already answers (then it is reused).
 * `launch()` spawns it and returns { pid, isDead() }; fails clearly when the port is held by something else.
 */
export async function startService({
  name,
  port,
  ports = [port],
  healthy,
  launch,
  timeoutMs,
  match,
}) {
  if (await healthy()) return { reused: true, pid: readPid(name, match) };
  const own = readPid(name, match);
  if (own) {
    // Started earlier by this checkout and still coming up (or hung): wait for it rather than start another.
    await waitFor(name, healthy, {
      timeoutMs,
      isDead: () => (isAlive(own) ? null : `pid ${own} exited`),
    });
    return { reused: true, pid: own };
  }
  for (const p of ports) {
    if (await portOpen(p)) {
      throw new Error(
        `${name}: port ${host}:${p} is in use by something that is not a healthy ${name} of this stack; stop it or free the port`,
      );
    }
  }
  const proc = await launch();
  await waitFor(name, healthy, { timeoutMs, isDead: proc.isDead });
  return { reused: false, pid: proc.pid };
}

/** Stops the process recorded in .local/run/<name>.pid (signal, then SIGKILL after timeoutMs) and waits for it to exit. */
export async function stopService(name, { match, signal = 'SIGTERM', timeoutMs = 30_000 } = {}) {
  const pid = readPid(name, match);
  fs.rmSync(pidFile(name), { force: true, recursive: false });
  if (!pid) return { stopped: false };
  const gone = async (ms) => {
    for (const end = Date.now() + ms; Date.now() < end; await sleep(100))
      if (!isAlive(pid)) return true;
    return !isAlive(pid);
  };
  try {
    process.kill(pid, signal);
  } catch {
    /* already gone */
  }
  if (!(await gone(timeoutMs))) {
    for (const target of [-pid, pid]) {
      try {
        process.kill(target, 'SIGKILL');
      } catch {
        /* not a group leader, or gone */
      }
    }
    await gone(5_000);
    return { stopped: true, pid, killed: true };
  }
  return { stopped: true, pid };
}

/** State of a long-running component for `status`. */
export async function serviceStatus({ name, address, healthy, match }) {
  const up = await healthy().catch(() => false);
  const pid = readPid(name, match);
  return {
    name,
    state: up ? 'up' : 'down',
    address,
    pid,
    owner: pid ? 'this checkout' : up ? 'external' : null,
  };
}

// ---- apt: one batch at a time; requests made within a short window are merged into one apt-get call. ----
let aptQueue = Promise.resolve();
let aptBatch = null;
let aptUpdatedThisRun = false;

function aptPrefix() {
  if (!commandPath('apt-get'))
    throw new Error(
      'apt-get not found: this script provisions with Debian packages; install them by hand',
    );
  if (isRoot) return ['env'];
  if (commandPath('sudo')) return ['sudo', 'env'];
  throw new Error('installing Debian packages needs root: run as root or install sudo');
}

function aptListsStale() {
  const dir = '/var/lib/apt/lists';
  try {
    const newest = Math.max(
      0,
      ...fs
        .readdirSync(dir)
        .filter((f) => f.endsWith('Release'))
        .map((f) => fs.statSync(path.join(dir, f)).mtimeMs),
    );
    return Date.now() - newest > 24 * 3600 * 1000;
  } catch {
    return true;
  }
}

async function aptRun(pkgs) {
  const [cmd, ...prefix] = aptPrefix();
  const apt = (...args) =>
    run(
      cmd,
      [
        ...prefix,
        'DEBIAN_FRONTEND=noninteractive',
        'apt-get',
        '-o',
        'DPkg::Lock::Timeout=300',
        ...args,
      ],
      { logName: 'apt' },
    );
  const update = async () => {
    reporter.say(`apt       apt-get update`);
    await apt('update', '-q');
    aptUpdatedThisRun = true;
  };
  if (!aptUpdatedThisRun && aptListsStale()) await update();
  reporter.say(`apt       installing ${pkgs.join(' ')} (log: ${logFile('apt')})`);
  const install = () => apt('install', '-y', '-q', '--no-install-recommends', ...pkgs);
  try {
    await install();
  } catch (err) {
    if (aptUpdatedThisRun) throw err;
    await update();
    await install();
  }
}

/** Installs Debian packages; concurrent callers are merged and serialised. */
export function aptInstall(pkgs) {
  if (!aptBatch) {
    const batch = { pkgs: new Set() };
    batch.done = new Promise((resolve) => setTimeout(resolve, 200)).then(() => {
      aptBatch = null;
      const result = aptQueue.then(() => aptRun([...batch.pkgs]));
      aptQueue = result.catch(() => {});
      return result;
    });
    aptBatch = batch;
  }
  pkgs.forEach((p) => aptBatch.pkgs.add(p));
  return aptBatch.done;
}

/**
 * A local stand-in the stack runs as a Node script of this repository (the SMTP catcher, the
 * payment sandbox): healthy when its /healthz names it and every port of `ports` answers.
 */
export function nodeScriptService({ name, script, address, healthUrl, service, ports }) {
  const isRunning = async () => {
    try {
      const res = await httpGet(healthUrl);
      if (res.status !== 200 || JSON.parse(res.body).service !== service) return false;
      for (const port of ports) if (!(await portOpen(port))) return false;
      return true;
    } catch {
      return false;
    }
  };
  return {
    isRunning,
    start: () =>
      startService({
        name,
        match: script,
        ports,
        healthy: isRunning,
        timeoutMs: 15_000,
        launch: () => spawnDetached(name, process.execPath, [script], { cwd: repoRoot }),
      }),
    stop: () => stopService(name, { match: script }),
    status: () => serviceStatus({ name, address, healthy: isRunning, match: script }),
  };
}
