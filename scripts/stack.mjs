#!/usr/bin/env node
/** CLI of the local stack (Postgres, Redis, Kafka, MinIO, SMTP catcher, payment sandbox, ffmpeg, Chromium): node scripts/stack.mjs up|status|down [component...] */
import { bootstrap } from './lib/bootstrap.mjs';

// The health checks use kafkajs and pg, so a fresh clone installs its dependencies first.
await bootstrap();
const { componentNames, ensureStack, stackStatus, stopStack } =
  await import('./lib/stack/index.mjs');

const [command, ...only] = process.argv.slice(2);
const usage = `usage: node scripts/stack.mjs up|status|down [${componentNames.join('|')} ...]`;

async function main() {
  switch (command) {
    case 'up':
      await ensureStack({ only });
      return 0;
    case 'down':
      await stopStack({ only });
      return 0;
    case 'status': {
      const states = await stackStatus({ only });
      for (const s of states) {
        const extra = [
          s.pid && `pid ${s.pid}`,
          s.owner === 'external' && 'not started by this checkout',
          s.detail,
        ].filter(Boolean);
        console.log(
          `${s.name.padEnd(9)} ${s.state.padEnd(9)} ${s.address ?? '-'}${extra.length ? `  (${extra.join(', ')})` : ''}`,
        );
      }
      return states.every((s) => s.state === 'up' || s.state === 'installed') ? 0 : 1;
    }
    default:
      console.error(usage);
      return 2;
  }
}

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error(err.message);
    process.exit(1);
  },
);
