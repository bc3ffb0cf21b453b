import react from '@vitejs/plugin-react';
import type { Plugin } from 'vite';
import type { ViteUserConfig } from 'vitest/config';
import { SPA_ROUTE_PATTERNS, SPA_ROUTES_FILE } from './src/app/routePaths';

/** One id per production build; the app compares it with builds/latest.json on a timer. */
const BUILD_ID = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;

/**
 * Files the server reads next to index.html: the SPA's route patterns (the gateway answers 404 for
 * other paths) and the build manifest (`builds/latest.json`, `builds/meta/<id>.json`).
 */
function buildFiles(): Plugin {
  return {
    name: 'challenge-build-files',
    apply: 'build',
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
  if (!id.includes('/node_modules/')) return undefined;
  if (/\/node_modules\/(react|react-dom|scheduler)\//.test(id)) return 'react';
  if (/\/node_modules\/react-router\//.test(id)) return 'router';
  if (/\/node_modules\/(@apollo|@wry|graphql|graphql-tag|rxjs|optimism|tslib)\//.test(id))
    return 'apollo';
  if (/\/node_modules\/(i18next|react-i18next)\//.test(id)) return 'i18n';
  return 'vendor';
}

const config: ViteUserConfig = {
  plugins: [react(), buildFiles()],
  server: { host: '127.0.0.1', port: 4780, proxy: apiProxy },
  preview: { host: '127.0.0.1', port: 4781, proxy: apiProxy },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // Maps for error reporting, without a sourceMappingURL comment in the served files.
    sourcemap: 'hidden',
    target: 'es2022',
    rollupOptions: { output: { manualChunks: vendorChunk } },
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
};

export default config;
