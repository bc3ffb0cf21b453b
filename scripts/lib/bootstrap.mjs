/**
 * First step of `npm start`, `npm test`, `npm run stack` and `npm run bench` on any machine, using
 * Node builtins only. Makes sure the script runs on the platform's Node (re-running it on a
 * cached copy of Node's official binary when the machine has another major), then installs the
 * npm dependencies when they are missing or older than the lockfile.
 */
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { nodeRuntime, repoRoot } from './stack-config.mjs';

const binDir = path.join(nodeRuntime.dir, 'bin');
const nodeBinary = path.join(binDir, 'node');

/** True when `version` (a.b.c) is of the pinned major and at least the minimum. */
export function isSupportedNode(version) {
  const [major, minor, patch] = version.split('.').map(Number);
  const [minMajor, minMinor, minPatch] = nodeRuntime.minimum.split('.').map(Number);
  if (major !== minMajor) return false;
  return minor !== minMinor ? minor > minMinor : patch >= minPatch;
}

function npm(args, options = {}) {
  const result = spawnSync('npm', args, { encoding: 'utf8', cwd: repoRoot, ...options });
  if (result.status !== 0)
    throw new Error(`npm ${args.join(' ')} failed:\n${result.stderr || result.error?.message}`);
  return result.stdout;
}

/**
 * Downloads the pinned Node from the npm registry (through npm, so its registry, proxy and CA
 * settings apply), checks the tarball against the integrity the registry publishes for it, and
 * unpacks bin/node into the cache. Another process doing the same at once is harmless: each
 * unpacks into its own folder and the first rename wins.
 */
function installNode() {
  const spec = `${nodeRuntime.packageName}@${nodeRuntime.version}`;
  const started = Date.now();
  console.log(
    `Node ${process.versions.node} is not Node ${nodeRuntime.minimum.split('.')[0]}: fetching ${spec} from the npm registry into ${nodeRuntime.dir} (once; about 50 MB)...`,
  );
  const staging = fs.mkdtempSync(`${nodeRuntime.dir}.partial-`);
  fs.chmodSync(staging, 0o755);
  try {
    const expected = JSON.parse(npm(['view', spec, 'dist.integrity', '--json']));
    const [packed] = JSON.parse(npm(['pack', spec, '--json', '--pack-destination', staging]));
    const tarball = path.join(staging, packed.filename);
    const actual = `sha512-${createHash('sha512').update(fs.readFileSync(tarball)).digest('base64')}`;
    if (actual !== expected)
      throw new Error(
        `${spec}: the tarball's digest ${actual} is not the registry's ${expected}; not using it`,
      );
    const untar = spawnSync('tar', ['-xzf', tarball, '-C', staging, 'package/bin/node'], {
      encoding: 'utf8',
    });
    if (untar.status !== 0) throw new Error(`unpacking ${tarball} failed: ${untar.stderr}`);
    fs.mkdirSync(path.join(staging, 'bin'));
    fs.renameSync(path.join(staging, 'package', 'bin', 'node'), path.join(staging, 'bin', 'node'));
    fs.rmSync(path.join(staging, 'package'), { recursive: true });
    fs.rmSync(tarball);
    const version = spawnSync(path.join(staging, 'bin', 'node'), ['--version'], {
      encoding: 'utf8',
    }).stdout?.trim();
    if (version !== `v${nodeRuntime.version}`)
      throw new Error(`${spec} unpacked a node that says ${version || 'nothing'}`);
    try {
      fs.renameSync(staging, nodeRuntime.dir);
    } catch (error) {
      if (!fs.existsSync(nodeBinary)) throw error;
    }
    console.log(
      `Node ${nodeRuntime.version} ready in ${((Date.now() - started) / 1000).toFixed(1)}s.`,
    );
  } finally {
    fs.rmSync(staging, { recursive: true, force: true });
  }
}

/**
 * Returns when this process runs on the platform's Node. Otherwise runs this same script on the
 * cached Node (fetched first if needed), with its bin first on PATH so that every child (npm, npx,
 * turbo's tasks, vitest, the services) runs on it too, and exits with that run's status.
 */
export async function ensureSupportedNode() {
  if (isSupportedNode(process.versions.node)) {
    // Children that find node on PATH (npm, npx and every #!/usr/bin/env node script) get this one.
    const dir = path.dirname(process.execPath);
    if (process.env.PATH?.split(path.delimiter)[0] !== dir)
      process.env.PATH = [dir, process.env.PATH].filter(Boolean).join(path.delimiter);
    return;
  }
  fs.mkdirSync(path.dirname(nodeRuntime.dir), { recursive: true });
  if (!fs.existsSync(nodeBinary)) installNode();
  const child = spawn(nodeBinary, [...process.execArgv, ...process.argv.slice(1)], {
    stdio: 'inherit',
    env: { ...process.env, PATH: [binDir, process.env.PATH].filter(Boolean).join(path.delimiter) },
  });
  // A terminal's Ctrl-C reaches both processes; a signal sent to this pid alone is passed on.
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'])
    process.on(signal, () => child.kill(signal));
  const code = await new Promise((resolve) => {
    child.on('error', (error) => {
      console.error(`could not run ${nodeBinary}: ${error.message}`);
      resolve(1);
    });
    child.on('exit', (status, signal) =>
      resolve(status ?? 128 + (os.constants.signals[signal] ?? 0)),
    );
  });
  process.exit(code);
}

export function ensureDependencies() {
  const installed = path.join(repoRoot, 'node_modules', '.package-lock.json');
  const lockfile = path.join(repoRoot, 'package-lock.json');
  if (fs.existsSync(installed) && fs.statSync(installed).mtimeMs >= fs.statSync(lockfile).mtimeMs)
    return;
  // A clone without node_modules installs exactly the lockfile, as the Dockerfile does; one whose
  // node_modules is older than the lockfile (after a pull) is brought up to date in place.
  const fresh = !fs.existsSync(path.join(repoRoot, 'node_modules'));
  const args = fresh ? ['ci'] : ['install'];
  console.log(`Installing npm dependencies (npm ${args[0]})...`);
  const result = spawnSync('npm', [...args, '--no-audit', '--no-fund'], {
    cwd: repoRoot,
    stdio: 'inherit',
  });
  if (result.status !== 0) {
    console.error(
      `npm ${args[0]} could not install the dependencies (see above).` +
        (fresh
          ? ' If it says package.json and package-lock.json are out of sync, run `npm install` once and commit package-lock.json.'
          : ''),
    );
    process.exit(result.status ?? 1);
  }
}

export async function bootstrap() {
  await ensureSupportedNode();
  ensureDependencies();
}
