import { defineConfig } from 'vitest/config';

// This package sits below @challenge/testing, so it cannot use its shared config (no cycles).
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    reporters: ['default', ['json', { outputFile: 'test-results/vitest.json' }]],
  },
});
