/**
 * `prisma generate` for the workspace it runs in. The CLI insists that a schema engine binary
 * exists although generation never runs it, and it cannot download one here; any executable
 * satisfies the check (docs/adr/0003-prisma-offline.md).
 */
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const cli = require.resolve('prisma/build/index.js');
const result = spawnSync(process.execPath, [cli, 'generate'], {
  stdio: ['ignore', 'ignore', 'inherit'],
  env: {
    ...process.env,
    PRISMA_SCHEMA_ENGINE_BINARY: process.execPath,
    PRISMA_HIDE_UPDATE_MESSAGE: '1',
  },
});
process.exit(result.status ?? 1);
