import { readFileSync } from 'node:fs';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompress, constants as zlibConstants, gzip } from 'node:zlib';
import { promisify } from 'node:util';
import react from '@vitejs/plugin-react';
import type { Plugin } from 'vite';
import { defineConfig } from 'vitest/config';
import { SPA_ROUTE_PATTERNS, SPA_ROUTES_FILE } from './src/app/routePaths';
import { SHELL_SECTIONS, TRANSLATIONS_MODULE_PREFIX } from './src/app/translationParts';

const here = path.dirname(fileURLToPath(import.meta.url));

/** One id per production build; the app compares it with builds/latest.json on a timer. */
const BUILD_ID = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;

/**
 * Files the server reads next to index.html: the SPA's route patterns (the gateway answers 404 for
 * other paths) and the build manifest (`builds/latest.json`, `builds/meta/<id>.json`).
 */
function buildFiles(): Plugin {
  return {
    name: 'challenge-build-files',
    apply: (_config, env) => env.command === 'build' && !env.isSsrBuild,
    // Only a production build has an id (the dev server and tests have none: no check).
    config: () => ({ define: { 'import.meta.env.VITE_BUILD_ID': JSON.stringify(BUILD_ID) } }),
    generateBundle() {
      const meta = JSON.stringify({ id: BUILD_ID, builtAt: new Date().toISOString() });
      this.emitFile({
        type: 'asset',
        fileName: SPA_ROUTES_FILE,
        source: `${JSON.stringify(SPA_ROUTE_PATTERNS, null, 2)}\n`,
      });
      this.emitFile({ type: 'asset', fileName: 'builds/latest.json', source: meta });
      this.emitFile({ type: 'asset', fileName: `builds/meta/${BUILD_ID}.json`, source: meta });
    },
  };
}

/**
 * `virtual:translations/<language>/<shell|rest>`: one part of a locale file (app/translationParts.ts),
 * as `JSON.parse` of a string, which engines read faster than the same object as code.
 */
function translationParts(): Plugin {
  const resolved = '\0texts-';
  return {
    name: 'challenge-translation-parts',
    resolveId(id) {
      if (!id.startsWith(TRANSLATIONS_MODULE_PREFIX)) return undefined;
      // The chunk's name (texts-en-shell-<hash>.js) comes from the id's last part.
      return resolved + id.slice(TRANSLATIONS_MODULE_PREFIX.length).replace('/', '-');
    },
    load(id) {
      if (!id.startsWith(resolved)) return undefined;
      const [language = '', part = ''] = id.slice(resolved.length).split('-');
      if (!/^[a-z]{2}$/.test(language) || (part !== 'shell' && part !== 'rest')) {
        throw new Error(`unknown translations module ${id}`);
      }
      const file = path.join(here, 'src/locales', `${language}.json`);
      this.addWatchFile(file);
      const texts = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
      const shell = new Set<string>(SHELL_SECTIONS);
      const picked = Object.fromEntries(
        Object.entries(texts).filter(([section]) => shell.has(section) === (part === 'shell')),
      );
      return `export default JSON.parse(${JSON.stringify(JSON.stringify(picked))});`;
    },
  };
}

/**
 * What the build compresses ahead of time; the gateway serves the smallest the client takes.
 * Not HTML: scripts/build.mjs changes index.html after this, and the gateway compresses pages
 * per request (it marks them first).
 */
const COMPRESSIBLE = /\.(js|css|json|svg|txt|webmanifest)$/;
/** Below this a compressed copy saves next to nothing. */
const COMPRESS_MIN_BYTES = 1024;

/**
 * Brotli (quality 11) and gzip (level 9) copies of every text file of the build, next to it
 * (`x.js.br`, `x.js.gz`): compressed once here, never per request (gateway/src/web.ts).
 */
export async function precompress(directory: string): Promise<void> {
  const brotli = promisify(brotliCompress);
  const gz = promisify(gzip);
  const entries = await readdir(directory, { recursive: true, withFileTypes: true });
  await Promise.all(
    entries
      // Not the build's own notes (.vite/manifest.json), which are never served.
      .filter((entry) => entry.isFile() && COMPRESSIBLE.test(entry.name))
      .filter((entry) => !path.relative(directory, entry.parentPath).startsWith('.'))
      .map(async (entry) => {
        const file = path.join(entry.parentPath, entry.name);
        const content = await readFile(file);
        if (content.length < COMPRESS_MIN_BYTES) return;
        const [br, gzipped] = await Promise.all([
          brotli(content, {
            params: {
              [zlibConstants.BROTLI_PARAM_QUALITY]: zlibConstants.BROTLI_MAX_QUALITY,
              [zlibConstants.BROTLI_PARAM_SIZE_HINT]: content.length,
            },
          }),
          gz(content, { level: 9 }),
        ]);
        await Promise.all([writeFile(`${file}.br`, br), writeFile(`${file}.gz`, gzipped)]);
      }),
  );
}

function precompressBuild(): Plugin {
  let outDir = '';
  return {
    name: 'challenge-precompress',
    apply: (_config, env) => env.command === 'build' && !env.isSsrBuild,
    configResolved(resolvedConfig) {
      outDir = path.resolve(resolvedConfig.root, resolvedConfig.build.outDir);
    },
    async closeBundle() {
      await precompress(outDir);
    },
  };
}

/**
 * The gateway (Express) serves the built SPA and `/graphql` on one origin. In development the Vite
 * server stands in for it and forwards the API paths to the gateway, so the session cookie stays
 * same-origin exactly as in production.
 */
const GATEWAY_ORIGIN = 'http://127.0.0.1:4700';

const apiProxy = {
  '/graphql': { target: GATEWAY_ORIGIN, changeOrigin: false },
  '/api': { target: GATEWAY_ORIGIN, changeOrigin: false },
};

/** Long-lived vendor chunks: app deploys do not invalidate the browser's copy of the libraries. */
function vendorChunk(id: string): string | undefined {
  if (/\/node_modules\/(react|react-dom|scheduler)\//.test(id)) return 'react';
  if (/\/node_modules\/react-router\//.test(id)) return 'router';
  if (/\/node_modules\/(@apollo|@wry|graphql|graphql-tag|rxjs|optimism|tslib)\//.test(id))
    return 'apollo';
  if (/\/node_modules\/(i18next|react-i18next)\//.test(id)) return 'i18n';
  return 'vendor';
}

type ModuleInfo = { importedIds: readonly string[] } | null;

/**
 * Vendor libraries into their chunks; the app's own modules that the entry imports statically
 * (the shell: layouts, the error pages, the shared widgets) into one `shell` chunk rather than a
 * dozen tiny ones, each a request before the page can hydrate. Everything else stays where
 * Rollup puts it: one chunk per page, loaded on first visit.
 */
function chunkOf(): (
  id: string,
  meta: { getModuleInfo(id: string): ModuleInfo },
) => string | undefined {
  let shell: Set<string> | null = null;
  const entry = path.join(here, 'src/main.tsx');
  return (id, { getModuleInfo }) => {
    if (id.includes('/node_modules/')) return vendorChunk(id);
    if (!shell) {
      shell = new Set();
      const pending = [entry];
      for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
        if (shell.has(next) || next.includes('/node_modules/')) continue;
        shell.add(next);
        pending.push(...(getModuleInfo(next)?.importedIds ?? []));
      }
    }
    return shell.has(id) && id !== entry ? 'shell' : undefined;
  };
}

export default defineConfig(({ isSsrBuild = false }) => ({
  plugins: [react(), translationParts(), buildFiles(), precompressBuild()],
  server: { host: '127.0.0.1', port: 4780, proxy: apiProxy },
  preview: { host: '127.0.0.1', port: 4781, proxy: apiProxy },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // Maps for error reporting, without a sourceMappingURL comment in the served files.
    sourcemap: 'hidden',
    target: 'es2022',
    // One stylesheet for every page: a prerendered page is styled before any script runs, and a
    // page's code never waits for its CSS (about 12 KB with brotli, docs/adr/0081).
    cssCodeSplit: false,
    // Which chunks each module needs: the JavaScript budget test reads it (never served).
    manifest: !isSsrBuild,
    // The prerender's server bundle (scripts/build.mjs) is one file for Node.
    ...(isSsrBuild ? {} : { rollupOptions: { output: { manualChunks: chunkOf() } } }),
  },
  test: {
    environment: 'jsdom',
    setupFiles: ['./src/test/setup.ts'],
    include: ['src/**/*.test.{ts,tsx}'],
    css: { modules: { classNameStrategy: 'non-scoped' } },
    restoreMocks: true,
    // Whole-app tests load route chunks on first use; under a parallel run that can take seconds.
    testTimeout: 20_000,
    reporters: ['default', ['json', { outputFile: 'test-results/vitest.json' }]],
  },
}));
