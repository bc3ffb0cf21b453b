/**
 * `npm run load -- <scenario> [k6 arguments]`: runs load-tests/<scenario>.js with k6 against
 * `npm start`'s platform (BASE_URL http://127.0.0.1:4700 unless given: `-e BASE_URL=...`), with
 * the SMTP catcher's inbox, the demo seed's accounts (.local/demo-users.json) and a small proof
 * clip (made by ffmpeg) given to the script. `-e PROFILE=smoke` runs a few seconds; `-e
 * MAX_VUS=20` sets the height; `-e DURATION=45s` holds it that long instead of the ramp.
 * `npm run -s load -- --platform-env` prints the platform's settings for a load run:
 * `env $(npm run -s load -- --platform-env) npm start`.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { bootstrap } from './lib/bootstrap.mjs';

await bootstrap();
const { localDir, repoRoot, stackUrls } = await import('./lib/stack-config.mjs');
const { LOAD_RUN_ENV, ensureClip, ensureK6 } = await import('./lib/k6.mjs');
const [scenario, ...rest] = process.argv.slice(2);
if (scenario === '--platform-env') {
  console.log(
    Object.entries(LOAD_RUN_ENV)
      .map(([key, value]) => `${key}=${value}`)
      .join('\n'),
  );
  process.exit(0);
}
const script = scenario && path.join(repoRoot, 'load-tests', `${scenario}.js`);
if (!script || !existsSync(script)) {
  console.error('usage: npm run load -- <scenario> [k6 arguments]; scenarios are load-tests/*.js');
  process.exit(1);
}
const given = [
  `INBOX_URL=${stackUrls().smtpCatcherHttp}`,
  `DEMO_USERS=${path.join(localDir, 'demo-users.json')}`,
  `CLIP=${ensureClip(path.join(localDir, 'load-tests', 'clip.mp4'))}`,
  `RECONCILIATION_GRACE_MS=${process.env.RECONCILIATION_GRACE_MS ?? LOAD_RUN_ENV.RECONCILIATION_GRACE_MS}`,
].flatMap((pair) => ['-e', pair]);
// The caller's own -e come after these, and win.
const result = spawnSync(ensureK6(), ['run', ...given, ...rest, script], {
  cwd: repoRoot,
  stdio: 'inherit',
});
process.exit(result.status ?? 1);
