import { defineConfig } from 'vitest/config';

/**
 * The test configuration every backend workspace uses: the global setup that checks the stack
 * and migrates the template databases, generous timeouts for real Kafka round trips, and a JSON
 * report that `npm test` sums into one line.
 */
export function backendTestConfig() {
  return defineConfig({
    test: {
      include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
      globalSetup: [new URL('./global-setup.ts', import.meta.url).pathname],
      testTimeout: 60_000,
      hookTimeout: 120_000,
      // Two cores: a few files at once keeps Kafka group joins from starving each other.
      maxWorkers: 2,
      // The gateway under test must not report to Apollo or probe cloud metadata endpoints.
      env: { APOLLO_TELEMETRY_DISABLED: 'true' },
      reporters: ['default', ['json', { outputFile: 'test-results/vitest.json' }]],
    },
  });
}
