/**
 * The production bundle of the workspace it runs in (a service or the gateway), its `build`
 * script: `node dist/index.js` then runs it with the production dependencies alone
 * (docs/adr/0078-production-bundles.md).
 *
 * - Our TypeScript (the workspace, @challenge/kit and @challenge/events, the generated Prisma
 *   client) is bundled into dist/index.js; every npm package stays external and is loaded from
 *   node_modules, where `npm ci --omit=dev` puts it. So a package a bundled file imports must
 *   be a `dependencies` entry of that file's package.json: a dev-only or undeclared one stops
 *   the build, since the production install would not have it.
 * - Prisma's client (prisma-client generator, no Rust engine) is TypeScript like the rest; its
 *   runtime and query compiler (WebAssembly inlined as base64 JavaScript) stay in @prisma/client.
 * - Files the sources read next to themselves at run time (`new URL('./schema.graphql',
 *   import.meta.url)`) keep their place: the workspace's non-code files under src/ are copied to
 *   dist/src/, each source's `import.meta.url` points at its own path under dist/, and the files
 *   named on the command line (the gateway's supergraph.graphql) are copied to dist/.
 *
 * usage (in a workspace): node <repo>/scripts/bundle.mjs [file to copy into dist ...]
 */
import { builtinModules } from 'node:module';
import fs from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';

const workspace = process.cwd();
const outDir = path.join(workspace, 'dist');
const builtins = new Set(builtinModules);
const OUR_SCOPE = '@challenge/';

/** 'pkg/sub/path' or '@scope/pkg/sub' to the package's name. */
const packageNameOf = (specifier) =>
  specifier
    .split('/')
    .slice(0, specifier.startsWith('@') ? 2 : 1)
    .join('/');

const manifests = new Map();
/** The package.json that governs `file` (the nearest one up the tree), with its folder. */
function manifestOf(file) {
  for (let dir = path.dirname(file); ; dir = path.dirname(dir)) {
    if (manifests.has(dir)) return manifests.get(dir);
    const candidate = path.join(dir, 'package.json');
    if (fs.existsSync(candidate)) {
      const manifest = { dir, json: JSON.parse(fs.readFileSync(candidate, 'utf8')) };
      manifests.set(dir, manifest);
      return manifest;
    }
    if (dir === path.dirname(dir)) throw new Error(`no package.json above ${file}`);
  }
}

const problems = [];

/** The copy of package `name` that Node's resolution finds from `fromDir`, and its version. */
function installedPackage(fromDir, name) {
  for (let dir = fromDir; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'node_modules', name);
    const manifest = path.join(candidate, 'package.json');
    if (fs.existsSync(manifest))
      return {
        dir: fs.realpathSync(candidate),
        version: JSON.parse(fs.readFileSync(manifest, 'utf8')).version,
      };
    if (dir === path.dirname(dir)) return null;
  }
}

/** npm packages stay external; each must be a production dependency of its importer. */
const externalPackages = {
  name: 'external-packages',
  setup(builder) {
    builder.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith('node:') || builtins.has(args.path)) return { external: true };
      if (args.path.startsWith(OUR_SCOPE)) return undefined; // bundled: our TypeScript
      const name = packageNameOf(args.path);
      const { dir, json } = manifestOf(args.importer);
      const declared = { ...json.dependencies, ...json.optionalDependencies };
      if (!(name in declared))
        problems.push(
          `${path.relative(workspace, args.importer)} imports ${name}, which is not in the dependencies of ${path.relative(workspace, path.join(dir, 'package.json')) || 'package.json'}`,
        );
      // The bundle loads it from dist/, not from the importer's folder: for kit's and events'
      // imports that can be another version (hoisted there for some other package). A copy of the
      // same version elsewhere is as good.
      const wanted = installedPackage(path.dirname(args.importer), name);
      const loaded = installedPackage(outDir, name);
      if (wanted && wanted.version !== loaded?.version)
        problems.push(
          `${path.relative(workspace, args.importer)} imports ${name} ${wanted.version}, but dist/index.js would load ${loaded ? `${loaded.version} from ${path.relative(workspace, loaded.dir)}` : 'nothing'}: add "${name}": "${wanted.version}" to the dependencies of ${path.basename(workspace)}'s package.json`,
        );
      return { external: true };
    });
  },
};

/** `import.meta.url` of each bundled source of this workspace: its own path, under dist/. */
const sourceUrls = {
  name: 'source-urls',
  setup(builder) {
    builder.onLoad({ filter: /\.(ts|mjs)$/ }, (args) => {
      const source = fs.readFileSync(args.path, 'utf8');
      const loader = args.path.endsWith('.ts') ? 'ts' : 'js';
      if (!source.includes('import.meta.url')) return { contents: source, loader };
      const relative = path.relative(workspace, args.path);
      if (relative.startsWith('..')) {
        problems.push(
          `${args.path} reads files relative to itself (import.meta.url): only the bundled workspace's own sources may`,
        );
        return { contents: source, loader };
      }
      const url = `new URL(${JSON.stringify(`./${relative.split(path.sep).join('/')}`)}, import.meta.url).href`;
      return { contents: source.replaceAll('import.meta.url', url), loader };
    });
  },
};

/** Copies every non-code file under `from` to the same place under `to`. */
function copyAssets(from, to) {
  for (const entry of fs.readdirSync(from, { withFileTypes: true })) {
    const source = path.join(from, entry.name);
    if (entry.isDirectory()) copyAssets(source, path.join(to, entry.name));
    else if (!/\.(ts|tsx|mts|mjs|js)$/.test(entry.name)) {
      fs.mkdirSync(to, { recursive: true });
      fs.copyFileSync(source, path.join(to, entry.name));
    }
  }
}

fs.rmSync(outDir, { recursive: true, force: true });
const result = await build({
  entryPoints: [path.join(workspace, 'src', 'index.ts')],
  outfile: path.join(outDir, 'index.js'),
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node24',
  sourcemap: 'linked',
  logLevel: 'warning',
  metafile: true,
  plugins: [externalPackages, sourceUrls],
});
if (problems.length) {
  fs.rmSync(outDir, { recursive: true, force: true });
  console.error(`Bundle of ${path.basename(workspace)} refused:\n  ${problems.join('\n  ')}`);
  process.exit(1);
}
copyAssets(path.join(workspace, 'src'), path.join(outDir, 'src'));
for (const file of process.argv.slice(2))
  fs.copyFileSync(path.join(workspace, file), path.join(outDir, path.basename(file)));
const bytes = fs.statSync(path.join(outDir, 'index.js')).size;
const inputs = Object.keys(result.metafile.inputs).length;
console.log(
  `${path.relative(process.cwd(), outDir) || outDir}/index.js: ${(bytes / 1024).toFixed(0)} KiB from ${inputs} files`,
);
