/** The SMTP catcher of the local stack (scripts/smtp-catcher.mjs): SMTP on 127.0.0.1:32525, inbox and API on 127.0.0.1:38025. */
import { createRequire } from 'node:module';
import path from 'node:path';
import { repoRoot, smtp as cfg } from '../stack-config.mjs';
import { nodeScriptService } from './helpers.mjs';

const script = path.join(repoRoot, 'scripts', 'smtp-catcher.mjs');
export const address = `${cfg.host}:${cfg.port} (inbox http://${cfg.host}:${cfg.httpPort})`;

export async function ensureInstalled() {
  const require = createRequire(script);
  for (const pkg of ['smtp-server', 'postal-mime']) {
    try {
      require.resolve(pkg);
    } catch {
      throw new Error(
        `smtp: the npm package ${pkg} is missing; run npm install at the repository root`,
      );
    }
  }
}

export const { isRunning, start, stop, status } = nodeScriptService({
  name: 'smtp',
  script,
  address,
  healthUrl: `http://${cfg.host}:${cfg.httpPort}/healthz`,
  service: 'smtp-catcher',
  ports: [cfg.port, cfg.httpPort],
});
