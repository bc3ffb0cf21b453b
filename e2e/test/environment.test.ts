import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { BUNDLE_COMMAND, gatewayEnv, serviceEnv } from '../../scripts/lib/platform.mjs';
import { repoRoot } from '../../scripts/lib/stack-config.mjs';
import { describe, expect, it } from 'vitest';

/**
 * Starts a workspace's production bundle (dist/index.js, as npm start and the images run it) with
 * a broken environment; it must stop before touching anything.
 */
async function start(workspace: string, env: Record<string, string>) {
  try {
    await promisify(execFile)(process.execPath, BUNDLE_COMMAND, {
      cwd: path.join(repoRoot, workspace),
      env,
      timeout: 60_000,
    });
    return { status: 0, stderr: '' };
  } catch (error) {
    const failed = error as { code?: number; stderr?: string };
    return { status: failed.code ?? -1, stderr: failed.stderr ?? '' };
  }
}

const without = (env: Record<string, string>, name: string) =>
  Object.fromEntries(Object.entries(env).filter(([key]) => key !== name));

describe('a missing or invalid environment variable stops a process at start with one clear line', () => {
  it.concurrent.each([
    ['services/identity', 'JWT_PRIVATE_KEY', serviceEnv('identity')],
    ['services/wallet', 'KAFKA_BROKERS', serviceEnv('wallet')],
    ['services/challenge', 'DATABASE_URL', serviceEnv('challenge')],
    ['services/media', 'S3_BUCKET', serviceEnv('media')],
    ['services/moderation', 'REDIS_URL', serviceEnv('moderation')],
    ['services/notification', 'SMTP_HOST', serviceEnv('notification')],
    ['gateway', 'WALLET_URL', gatewayEnv()],
    // The gateway's credential (docs/adr/0069): no subgraph starts open, no gateway without it.
    ['services/moderation', 'GATEWAY_SECRET', serviceEnv('moderation')],
    ['gateway', 'GATEWAY_SECRET', gatewayEnv()],
  ])('%s without %s', async (workspace, name, env) => {
    const result = await start(workspace, without(env, name));
    expect(result.status).toBe(1);
    expect(result.stderr.trim()).toBe(
      `Invalid environment variable ${name}: is required but not set`,
    );
  });

  it.concurrent('names an invalid value', async () => {
    const result = await start('services/wallet', { ...serviceEnv('wallet'), PORT: 'eighty' });
    expect(result.status).toBe(1);
    expect(result.stderr.trim()).toMatch(/^Invalid environment variable PORT: /);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
  });
});
