/**
 * `npm run load -- <scenario> [k6 arguments]`: runs load-tests/<scenario>.js with k6 against
 * `npm start`'s platform (BASE_URL http://127.0.0.1:4700 unless given: `-e BASE_URL=...`).
 * `-e PROFILE=smoke` runs a few seconds; `-e MAX_VUS=20` sets the ramp's height.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { bootstrap } from './lib/bootstrap.mjs';

await bootstrap();
const { repoRoot } = await import('./lib/stack-config.mjs');
const { ensureK6 } = await import('./lib/k6.mjs');
const [scenario, ...rest] = process.argv.slice(2);
const script = scenario && path.join(repoRoot, 'load-tests', `${scenario}.js`);
if (!script || !existsSync(script)) {
  console.error('usage: npm run load -- <scenario> [k6 arguments]; scenarios are load-tests/*.js');
  process.exit(1);
}
const result = spawnSync(ensureK6(), ['run', ...rest, script], { cwd: repoRoot, stdio: 'inherit' });
process.exit(result.status ?? 1);
