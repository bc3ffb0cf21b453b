/**
 * `npm run images`: builds every image of the Dockerfile (the six services, the gateway and the
 * migrations) with whichever engine the machine has, then starts each one against the local
 * stack and waits for its /readyz (docs/adr/0086-images.md).
 *
 *   npm run images                          build all, then run all
 *   npm run images -- identity gateway      only these (the gateway needs the six to run)
 *   npm run images -- --no-run              build only
 *   IMAGE_ENGINE=buildah npm run images     choose the engine (default: the first that works of
 *                                           docker, podman, buildah; none: buildah from apt)
 *   NODE_IMAGE=node:24-bookworm-slim ...    the base (default: the official one with docker and
 *                                           podman; with buildah one made offline, see below)
 *
 * With buildah and no NODE_IMAGE, the base is made offline with the same content as the official
 * node:24-bookworm-slim: a minimal Debian 12 from Debian's packages (mmdebstrap, with the slim
 * image's dpkg exclusions), Node's official binary (the one the bootstrap fetches from the npm
 * registry), npm, and the `node` user (uid 1000). It is kept as
 * localhost/challenge-platform/node:<version>-bookworm-slim-offline and reused.
 *
 * Running: docker and podman run each image as a container on the host network with a read-only
 * root filesystem and a tmpfs /tmp; with buildah, the working container's root filesystem is
 * bound read-only with a tmpfs /tmp and the entry point runs chrooted there as the image's user
 * (host network; `readOnlyRun`). Each service gets npm start's environment
 * (scripts/lib/platform.mjs) with free ports, its own databases (images_<service>, migrated by
 * the migrations image first) and a topic prefix, all removed afterwards. Then the image's
 * HEALTHCHECK command is run inside it, and the gateway must serve the SPA.
 *
 * Figures (build time, size, size over the base, time to ready) are printed and written to
 * .local/images/report.json. Builds are heavy: one image at a time.
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { bootstrap } from './lib/bootstrap.mjs';

await bootstrap();

// ---- environment (the only place this script reads it) ---------------------------------------
const IMAGE_ENGINE = process.env.IMAGE_ENGINE || '';
const NODE_IMAGE = process.env.NODE_IMAGE || '';
// The CA bundle npm needs to reach the registry here (a build secret, never in an image).
const NPM_CA_FILE = process.env.NODE_EXTRA_CA_CERTS || '';
// -------------------------------------------------------------------------------------------------

const { localDir, nodeRuntime, repoRoot, stackUrls } = await import('./lib/stack-config.mjs');
const { SERVICES, gatewayEnv, serviceEnv } = await import('./lib/platform.mjs');

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { 'no-run': { type: 'boolean', default: false } },
});
const ALL = [...SERVICES, 'gateway', 'migrations'];
const unknown = positionals.filter((name) => !ALL.includes(name));
if (unknown.length) {
  console.error(`unknown image: ${unknown.join(', ')} (images: ${ALL.join(', ')})`);
  process.exit(2);
}
const wanted = positionals.length ? ALL.filter((name) => positionals.includes(name)) : ALL;
const workDir = path.join(localDir, 'images');
fs.mkdirSync(workDir, { recursive: true });
const tag = (name) => `localhost/challenge-platform/${name}:dev`;
const seconds = (ms) => Math.round(ms / 1000);
const mb = (bytes) => (bytes / 1e6).toFixed(0);

function run(cmd, args, options = {}) {
  const result = spawnSync(cmd, args, {
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
    cwd: repoRoot,
    ...options,
  });
  return {
    ok: result.status === 0,
    stdout: result.stdout ?? '',
    output: `${result.stdout ?? ''}${result.stderr ?? ''}${result.error?.message ?? ''}`,
  };
}

function must(cmd, args, options) {
  const result = run(cmd, args, options);
  if (!result.ok)
    throw new Error(`${cmd} ${args.join(' ')} failed:\n${result.output.slice(-4000)}`);
  return result.stdout.trim();
}

/** Runs a long command with its output in a log file; the end of the log on failure. */
function logged(logName, cmd, args) {
  const log = path.join(workDir, `${logName}.log`);
  const fd = fs.openSync(log, 'w');
  const started = Date.now();
  const result = spawnSync(cmd, args, { cwd: repoRoot, stdio: ['ignore', fd, fd] });
  fs.closeSync(fd);
  if (result.status !== 0) {
    const tail = fs.readFileSync(log, 'utf8').split('\n').slice(-40).join('\n');
    throw new Error(`${cmd} ${args.slice(0, 3).join(' ')} ... failed (log: ${log}):\n${tail}`);
  }
  return Date.now() - started;
}

// ---- the engine -----------------------------------------------------------------------------
async function chooseEngine() {
  if (IMAGE_ENGINE) return IMAGE_ENGINE;
  if (run('docker', ['info']).ok) return 'docker';
  if (run('podman', ['info']).ok) return 'podman';
  if (!run('buildah', ['--version']).ok) {
    console.log('images    no docker engine, podman or buildah here: installing buildah from apt');
    const { aptInstall } = await import('./lib/stack/helpers.mjs');
    await aptInstall(['buildah', 'mmdebstrap']);
  }
  return 'buildah';
}

const engine = await chooseEngine();
if (!['docker', 'podman', 'buildah'].includes(engine)) {
  console.error(`IMAGE_ENGINE must be docker, podman or buildah, not ${engine}`);
  process.exit(2);
}

// ---- the base -------------------------------------------------------------------------------
const OFFLINE_BASE = `localhost/challenge-platform/node:${nodeRuntime.version}-bookworm-slim-offline`;
const DEBIAN_SOURCES = [
  'deb http://deb.debian.org/debian bookworm main',
  'deb http://deb.debian.org/debian bookworm-updates main',
  'deb http://deb.debian.org/debian-security bookworm-security main',
];
// What the official slim images leave out (debuerreotype's --slim).
const SLIM_EXCLUDES = [
  'path-exclude=/usr/share/doc/*',
  'path-include=/usr/share/doc/*/copyright',
  'path-exclude=/usr/share/man/*',
  'path-exclude=/usr/share/info/*',
  'path-exclude=/usr/share/locale/*',
  'path-exclude=/usr/share/groff/*',
  'path-exclude=/usr/share/lintian/*',
  'path-exclude=/usr/share/linda/*',
];

function nodeBinary() {
  if (process.versions.node === nodeRuntime.version) return process.execPath;
  const cached = path.join(nodeRuntime.dir, 'bin', 'node');
  if (fs.existsSync(cached)) return cached;
  throw new Error(
    `Node ${nodeRuntime.version}'s binary is not in ${nodeRuntime.dir}: run npm test or npm start once (the bootstrap fetches it)`,
  );
}

async function makeOfflineBase() {
  if (run('buildah', ['inspect', '--type', 'image', OFFLINE_BASE]).ok) return 0;
  if (!run('mmdebstrap', ['--version']).ok) {
    const { aptInstall } = await import('./lib/stack/helpers.mjs');
    await aptInstall(['mmdebstrap']);
  }
  console.log(`images    making the base ${OFFLINE_BASE} from Debian's packages (once)`);
  const started = Date.now();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'challenge-base-'));
  const container = `challenge-base-${process.pid}`;
  try {
    const tar = path.join(dir, 'debian.tar');
    logged('base-mmdebstrap', 'mmdebstrap', [
      '--variant=minbase',
      // Merged /usr set up directly: without the usrmerge package, which drags in perl.
      '--hook-dir=/usr/share/mmdebstrap/hooks/merged-usr',
      ...SLIM_EXCLUDES.map((rule) => `--dpkgopt=${rule}`),
      'bookworm',
      tar,
      ...DEBIAN_SOURCES,
    ]);
    // Node as the official image lays it out: the binary, npm (the version packageManager pins)
    // and its two commands in /usr/local.
    const local = path.join(dir, 'root', 'usr', 'local');
    fs.mkdirSync(path.join(local, 'bin'), { recursive: true });
    fs.copyFileSync(nodeBinary(), path.join(local, 'bin', 'node'));
    fs.chmodSync(path.join(local, 'bin', 'node'), 0o755);
    const npmVersion = JSON.parse(
      fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8'),
    ).packageManager.replace(/^npm@/, '');
    const packed = must('npm', ['pack', `npm@${npmVersion}`, '--pack-destination', dir], {
      cwd: dir,
    })
      .split('\n')
      .at(-1);
    fs.mkdirSync(path.join(local, 'lib', 'node_modules'), { recursive: true });
    must('tar', ['xzf', path.join(dir, packed), '-C', path.join(local, 'lib', 'node_modules')]);
    fs.renameSync(
      path.join(local, 'lib', 'node_modules', 'package'),
      path.join(local, 'lib', 'node_modules', 'npm'),
    );
    fs.symlinkSync('../lib/node_modules/npm/bin/npm-cli.js', path.join(local, 'bin', 'npm'));
    fs.symlinkSync('../lib/node_modules/npm/bin/npx-cli.js', path.join(local, 'bin', 'npx'));

    must('buildah', ['from', '--name', container, 'scratch']);
    must('buildah', ['add', container, tar, '/']);
    must('buildah', ['copy', container, path.join(dir, 'root'), '/']);
    must('buildah', [
      'run',
      '--isolation',
      'chroot',
      container,
      '--',
      'sh',
      '-c',
      'groupadd --gid 1000 node && useradd --uid 1000 --gid node --shell /bin/bash --create-home node && node --version && npm --version',
    ]);
    must('buildah', [
      'config',
      '--env',
      'PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin',
      '--env',
      `NODE_VERSION=${nodeRuntime.version}`,
      '--cmd',
      'node',
      '--label',
      'org.opencontainers.image.description=Debian 12 minbase (slim) and Node from the npm registry, made offline like node:24-bookworm-slim',
      container,
    ]);
    must('buildah', ['commit', '--format', 'docker', container, OFFLINE_BASE]);
  } finally {
    run('buildah', ['rm', container]);
    fs.rmSync(dir, { recursive: true, force: true });
  }
  return Date.now() - started;
}

let baseImage = NODE_IMAGE || 'node:24-bookworm-slim';
let baseMs = 0;
if (engine === 'buildah' && !NODE_IMAGE) {
  baseMs = await makeOfflineBase();
  baseImage = OFFLINE_BASE;
}

// ---- sizes ----------------------------------------------------------------------------------
/** Bytes of an image (its layers, uncompressed), as the engine reports them. */
function imageSize(image) {
  if (engine === 'docker')
    return Number(must('docker', ['image', 'inspect', '-f', '{{.Size}}', image]));
  const cli = engine === 'podman' ? 'podman' : 'buildah';
  const listed = JSON.parse(must(cli, ['images', '--json', image]));
  const entry = Array.isArray(listed) ? listed[0] : listed;
  if (typeof entry?.size === 'number') return entry.size;
  if (typeof entry?.Size === 'number') return entry.Size;
  // buildah 1.28 prints a rounded "257 MB": ask the storage for the layers instead.
  const inspect = JSON.parse(must(cli, ['inspect', '--type', 'image', image]));
  const layers = inspect.OCIv1?.rootfs?.diff_ids?.length ?? 0;
  const parsed = /([\d.]+)\s*(kB|MB|GB)/.exec(String(entry?.size ?? entry?.Size ?? ''));
  if (!parsed) throw new Error(`no size for ${image} (${layers} layers)`);
  return Number(parsed[1]) * { kB: 1e3, MB: 1e6, GB: 1e9 }[parsed[2]];
}

// ---- build ----------------------------------------------------------------------------------
const caFile = NPM_CA_FILE && fs.existsSync(NPM_CA_FILE) ? NPM_CA_FILE : '';
const report = { engine, base: baseImage, baseSeconds: seconds(baseMs), images: {} };
if (baseMs) console.log(`images    base made in ${seconds(baseMs)} s`);
const baseSize = (() => {
  try {
    return imageSize(baseImage);
  } catch {
    return 0;
  }
})();

for (const name of wanted) {
  const args = [
    ...(name === 'migrations' ? ['--target', 'migrations'] : ['--build-arg', `SERVICE=${name}`]),
    '--build-arg',
    `NODE_IMAGE=${baseImage}`,
    ...(caFile ? ['--secret', `id=npm-ca,src=${caFile}`] : []),
    '-f',
    'Dockerfile',
    '-t',
    tag(name),
    '.',
  ];
  const command =
    engine === 'docker'
      ? ['docker', ['build', ...args]]
      : [engine, ['build', '--isolation', 'chroot', '--layers', '--format', 'docker', ...args]];
  process.stdout.write(`images    ${name.padEnd(13)} building with ${engine} ... `);
  const ms = logged(`build-${name}`, ...command);
  const size = imageSize(tag(name));
  report.images[name] = { buildSeconds: seconds(ms), bytes: size, overBaseBytes: size - baseSize };
  console.log(`${seconds(ms)} s, ${mb(size)} MB (${mb(size - baseSize)} MB over the base)`);
}

// ---- run ------------------------------------------------------------------------------------
const freePort = () =>
  new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });

/** The image's entry point, command and health check, from its configuration. */
function imageConfig(image) {
  const cli = engine === 'docker' ? 'docker' : engine === 'podman' ? 'podman' : 'buildah';
  const json = JSON.parse(
    must(
      cli,
      engine === 'buildah' ? ['inspect', '--type', 'image', image] : ['image', 'inspect', image],
    ),
  );
  const config = engine === 'buildah' ? json.Docker?.config : (json[0]?.Config ?? json[0]?.config);
  return {
    entrypoint: config?.Entrypoint ?? [],
    cmd: config?.Cmd ?? [],
    healthcheck: config?.Healthcheck?.Test ?? null,
    env: Object.fromEntries(
      (config?.Env ?? []).map((pair) => [
        pair.slice(0, pair.indexOf('=')),
        pair.slice(pair.indexOf('=') + 1),
      ]),
    ),
    user: config?.User || '0:0',
    workingDir: config?.WorkingDir || '/',
  };
}

const shellQuote = (value) => `'${String(value).replaceAll("'", `'\\''`)}'`;

/**
 * How buildah's image runs here, as a container engine with `--read-only --tmpfs /tmp` would run
 * it: `buildah run` has no read-only root, so the working container's root filesystem is
 * mounted, bound read-only in a mount namespace of its own (with a tmpfs /tmp, /dev and /proc),
 * and the entry point runs chrooted there as the image's user, in its working directory, with
 * its environment. A write outside /tmp fails as it would in the cluster
 * (readOnlyRootFilesystem). The files (host path -> path inside) are bound read-only.
 */
function readOnlyRun(container, config, files) {
  const root = must('buildah', ['mount', container]);
  const inside = (target) => shellQuote(path.posix.join(root, target));
  const script = [
    'set -e',
    `mount --bind ${shellQuote(root)} ${shellQuote(root)}`,
    ...Object.entries(files).flatMap(([from, to]) => [
      `mkdir -p ${inside(path.posix.dirname(to))}`,
      `touch ${inside(to)}`,
      `mount --bind -o ro ${shellQuote(from)} ${inside(to)}`,
    ]),
    `mount -o remount,bind,ro ${shellQuote(root)}`,
    `mount -t tmpfs -o mode=1777,size=512m tmpfs ${inside('/tmp')}`,
    `mount --rbind /dev ${inside('/dev')}`,
    `mount -t proc proc ${inside('/proc')}`,
    `exec chroot --userspec=${shellQuote(config.user)} ${shellQuote(root)} /bin/sh -c ${shellQuote(
      `cd ${shellQuote(config.workingDir)} && exec "$@"`,
    )} sh ${[...config.entrypoint, ...config.cmd].map(shellQuote).join(' ')}`,
  ].join('\n');
  return ['unshare', ['--mount', '--fork', '/bin/sh', '-c', script]];
}

const running = [];

/**
 * Starts `image` with `vars`; files (host path -> path inside) are mounted read-only. Returns a
 * handle with its output, a way to run a command inside and to stop it.
 */
function start(name, image, vars, files = {}) {
  const config = imageConfig(image);
  const envArgs = Object.entries(vars).flatMap(([key, value]) => ['--env', `${key}=${value}`]);
  let spawnArgs;
  let spawnEnv = process.env;
  let container = null;
  if (engine === 'buildah') {
    container = must('buildah', ['from', '--name', `challenge-${name}-${process.pid}`, image]);
    spawnArgs = readOnlyRun(container, config, files);
    // tini is PID 1 in a real container; here it is a child, told to reap as a subreaper.
    spawnEnv = { PATH: process.env.PATH, ...config.env, ...vars, TINI_SUBREAPER: '1' };
  } else {
    container = `challenge-${name}-${process.pid}`;
    const mounts = Object.entries(files).flatMap(([from, to]) => ['-v', `${from}:${to}:ro`]);
    spawnArgs = [
      engine,
      [
        'run',
        '--rm',
        '--name',
        container,
        '--network',
        'host',
        '--read-only',
        '--tmpfs',
        '/tmp',
        ...envArgs,
        ...mounts,
        image,
      ],
    ];
  }
  const child = spawn(...spawnArgs, {
    detached: true,
    env: spawnEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const handle = {
    name,
    child,
    output: () => output,
    /** Runs a command inside the running container. */
    exec(command, extraVars = {}) {
      const extra = Object.entries({ ...vars, ...extraVars }).flatMap(([k, v]) => [
        '--env',
        `${k}=${v}`,
      ]);
      return engine === 'buildah'
        ? run('buildah', ['run', '--isolation', 'chroot', ...extra, container, '--', ...command])
        : run(engine, ['exec', container, ...command]);
    },
    async stop() {
      // What runs inside, collected first: buildah's chroot runs it in a session of its own, so
      // it can outlive the engine's process (then orphaned, no longer found below it).
      const started = (pid) => {
        try {
          const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
          return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
        } catch {
          return null;
        }
      };
      // By pid and start time, so that a pid reused meanwhile is never signalled.
      const inside = descendantsOf(child.pid).map((pid) => ({ pid, since: started(pid) }));
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        // Its own process group: the engine's process and what it started, nothing else.
        process.kill(-child.pid, 'SIGTERM');
        const timer = setTimeout(() => {
          try {
            process.kill(-child.pid, 'SIGKILL');
          } catch {
            /* gone */
          }
        }, 30_000);
        await exited;
        clearTimeout(timer);
      }
      const alive = ({ pid, since }) => since !== null && started(pid) === since;
      for (const { pid } of inside.filter(alive)) process.kill(pid, 'SIGTERM');
      for (let waited = 0; waited < 30_000 && inside.some(alive); waited += 500)
        await new Promise((resolve) => setTimeout(resolve, 500));
      for (const { pid } of inside.filter(alive)) process.kill(pid, 'SIGKILL');
      if (engine === 'buildah') {
        run('buildah', ['umount', container]);
        run('buildah', ['rm', container]);
      }
    },
  };
  running.push(handle);
  return handle;
}

async function waitReady(handle, url, timeoutMs = 240_000) {
  const started = Date.now();
  for (;;) {
    if (handle.child.exitCode !== null || handle.child.signalCode !== null)
      throw new Error(
        `${handle.name} exited before it was ready:\n${handle.output().slice(-4000)}`,
      );
    try {
      const response = await fetch(url);
      if (response.ok) return Date.now() - started;
    } catch {
      /* not listening yet */
    }
    if (Date.now() - started > timeoutMs)
      throw new Error(
        `${handle.name}: ${url} not ready after ${timeoutMs} ms:\n${handle.output().slice(-4000)}`,
      );
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

async function runImages() {
  const pg = (await import('pg')).default;
  const urls = stackUrls();
  const admin = new pg.Client({ connectionString: urls.postgresAdminUrl });
  await admin.connect();
  const databaseName = (service) => `images_${service}`;
  const databaseUrl = (service) => urls.databaseUrl(databaseName(service));
  const topicPrefix = `images-${process.pid}-`;
  const runGateway = wanted.includes('gateway');
  // The migrations image migrates all six (a database it is not given would be the stack's own).
  const needed = SERVICES;
  const services = SERVICES.filter((service) => runGateway || wanted.includes(service));
  try {
    // Fresh databases, migrated by the migrations image (built now or before).
    for (const service of needed) {
      await admin.query(`DROP DATABASE IF EXISTS "${databaseName(service)}" WITH (FORCE)`);
      await admin.query(`CREATE DATABASE "${databaseName(service)}"`);
    }
    const migrationVars = Object.fromEntries(
      needed.map((service) => [`${service.toUpperCase()}_DATABASE_URL`, databaseUrl(service)]),
    );
    const migrations = start('migrations', tag('migrations'), migrationVars);
    const migrated = await new Promise((resolve) => migrations.child.once('exit', resolve));
    await migrations.stop();
    if (migrated !== 0) throw new Error(`the migrations image failed:\n${migrations.output()}`);
    console.log(`images    migrations    applied every service's migrations to images_* databases`);

    const ports = Object.fromEntries(
      await Promise.all(SERVICES.map(async (service) => [service, await freePort()])),
    );
    const gatewayPort = await freePort();
    const layout = { ports, gatewayPort, databaseUrl, topicPrefix };
    const paymentsCa = urls.paymentSandbox.caFile;
    const started = [];
    for (const service of services) {
      const vars = serviceEnv(service, layout);
      const files = {};
      if (service === 'wallet' && paymentsCa) {
        files[paymentsCa] = '/run/payments-ca/cert.pem';
        vars.MOLLIE_EXTRA_CA_FILE = '/run/payments-ca/cert.pem';
      }
      started.push({ service, handle: start(service, tag(service), vars, files), vars });
    }
    for (const { service, handle } of started) {
      const ms = await waitReady(handle, `http://127.0.0.1:${ports[service]}/readyz`);
      const health = checkHealth(service, handle);
      const root = rootFilesystem(handle.child.pid);
      if (root === 'writable') throw new Error(`${service} runs on a writable root filesystem`);
      report.images[service] = {
        ...report.images[service],
        readySeconds: seconds(ms),
        health,
        rootFilesystem: root,
      };
      console.log(
        `images    ${service.padEnd(13)} /readyz answered 200 after ${seconds(ms)} s on a ${root} root; HEALTHCHECK ${health}`,
      );
    }
    if (runGateway) {
      const vars = gatewayEnv(layout);
      delete vars.WEB_DIST_DIR; // the image's own web/dist
      const handle = start('gateway', tag('gateway'), vars);
      const ms = await waitReady(handle, `http://127.0.0.1:${gatewayPort}/readyz`);
      const page = await fetch(`http://127.0.0.1:${gatewayPort}/`);
      const html = await page.text();
      if (!page.ok || !html.includes('<div id="root">'))
        throw new Error(
          `the gateway image does not serve the SPA: ${page.status}\n${html.slice(0, 300)}`,
        );
      // A visitor's query that the gateway plans into four subgraphs' images: each answers with
      // its status envelope (signed-in operations refuse a visitor; the discover list serves).
      const status = 'status { success identifier }';
      const answer = await (
        await fetch(`http://127.0.0.1:${gatewayPort}/graphql`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'apollo-require-preflight': 'true' },
          body: JSON.stringify({
            query: `{
              getCurrentUserProfile { ${status} }
              getWallet { ${status} }
              myReports { ${status} }
              discoverChallenges(input: { list: "all" }) { ${status} }
            }`,
          }),
        })
      ).json();
      const fields = ['getCurrentUserProfile', 'getWallet', 'myReports', 'discoverChallenges'];
      if (
        answer?.errors ||
        !fields.every((field) => typeof answer?.data?.[field]?.status?.identifier === 'string') ||
        answer.data.discoverChallenges.status.success !== true
      )
        throw new Error(
          `the gateway image did not answer through identity, wallet, moderation and challenge: ${JSON.stringify(answer)}`,
        );
      const health = checkHealth('gateway', handle);
      const root = rootFilesystem(handle.child.pid);
      if (root === 'writable') throw new Error('the gateway runs on a writable root filesystem');
      report.images.gateway = {
        ...report.images.gateway,
        readySeconds: seconds(ms),
        health,
        rootFilesystem: root,
      };
      console.log(
        `images    gateway       /readyz answered 200 after ${seconds(ms)} s on a ${root} root; serves the SPA and a query through four subgraphs; HEALTHCHECK ${health}`,
      );
    }
    // Resident memory of each image's process, started and idle (the query above aside).
    await new Promise((resolve) => setTimeout(resolve, 20_000));
    const rss = running
      .filter((handle) => handle.name !== 'migrations')
      .map((handle) => [handle.name, residentMiB(handle.child.pid)]);
    for (const [name, mib] of rss) report.images[name] = { ...report.images[name], rssMiB: mib };
    console.log(
      `images    resident memory 20 s after start (MiB): ${rss.map(([name, mib]) => `${name} ${mib}`).join(', ')}`,
    );
  } finally {
    for (const handle of running.reverse()) await handle.stop();
    for (const service of needed)
      await admin.query(`DROP DATABASE IF EXISTS "${databaseName(service)}" WITH (FORCE)`);
    await admin.end();
    await deleteTopics(topicPrefix);
  }
}

/**
 * The service's Node process among the descendants of `pid` (the engine's process: docker and
 * podman run it elsewhere, so null there).
 */
function serviceProcess(pid) {
  for (const candidate of descendantsOf(pid)) {
    try {
      // Node itself, not tini (PID 1 of the image), whose arguments name the bundle too.
      const [command, ...args] = fs.readFileSync(`/proc/${candidate}/cmdline`, 'utf8').split('\0');
      if (path.basename(command) === 'node' && args.some((arg) => arg.endsWith('dist/index.js')))
        return candidate;
    } catch {
      /* gone */
    }
  }
  return null;
}

/** VmRSS (MiB) of the service's Node process, or null. */
function residentMiB(pid) {
  const node = serviceProcess(pid);
  try {
    const kib = node && /VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${node}/status`, 'utf8'))?.[1];
    return kib ? Math.round(Number(kib) / 1024) : null;
  } catch {
    return null;
  }
}

/**
 * How the service's process sees its root filesystem: 'read-only' or 'writable' (its mount
 * options, from its own mount table), or 'not seen' where the engine runs it elsewhere.
 */
function rootFilesystem(pid) {
  const node = serviceProcess(pid);
  if (!node) return 'not seen';
  // mountinfo: id parent major:minor root mount-point options ...; the last "/" mount wins.
  const root = fs
    .readFileSync(`/proc/${node}/mountinfo`, 'utf8')
    .split('\n')
    .map((line) => line.split(' '))
    .filter((fields) => fields[4] === '/')
    .at(-1);
  return root?.[5]?.split(',').includes('ro') ? 'read-only' : 'writable';
}

/** The processes below `pid` (children, their children, ...), from /proc. */
function descendantsOf(pid) {
  const parents = new Map();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      parents.set(Number(entry), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      /* gone */
    }
  }
  const isDescendant = (candidate) => {
    for (let p = parents.get(candidate); p; p = parents.get(p)) if (p === pid) return true;
    return false;
  };
  return [...parents.keys()].filter(isDescendant);
}

/** Runs the image's HEALTHCHECK command inside the running container: 'ok' or its output. */
function checkHealth(service, handle) {
  const { healthcheck } = imageConfig(tag(service));
  if (!healthcheck || healthcheck[0] !== 'CMD') return 'missing';
  const result = handle.exec(healthcheck.slice(1));
  if (!result.ok) throw new Error(`${service}: HEALTHCHECK failed:\n${result.output}`);
  return 'ok';
}

async function deleteTopics(prefix) {
  await import('../packages/events/src/kafkajs-timers.mjs');
  const { Kafka, logLevel } = (await import('kafkajs')).default;
  const admin = new Kafka({
    brokers: stackUrls().kafkaBrokers,
    logLevel: logLevel.NOTHING,
  }).admin();
  await admin.connect();
  try {
    const topics = (await admin.listTopics()).filter((topic) => topic.startsWith(prefix));
    if (topics.length) await admin.deleteTopics({ topics });
  } finally {
    await admin.disconnect();
  }
}

const runnable = wanted.filter((name) => name !== 'migrations');
if (!values['no-run'] && runnable.length) {
  const { ensureStack } = await import('./lib/stack/index.mjs');
  await ensureStack();
  try {
    await runImages();
  } catch (error) {
    console.error(`images    ${error.message}`);
    process.exitCode = 1;
  }
}
fs.writeFileSync(path.join(workDir, 'report.json'), `${JSON.stringify(report, null, 2)}\n`);
console.log(`images    figures in ${path.relative(repoRoot, path.join(workDir, 'report.json'))}`);
