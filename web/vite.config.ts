import react from '@vitejs/plugin-react';
import type { ViteUserConfig } from 'vitest/config';

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
  plugins: [react()],
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
