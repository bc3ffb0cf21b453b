/** Redis of the local stack: Debian's redis-server on 127.0.0.1:63799, no persistence, working dir .local/redis. */
import net from 'node:net';
import path from 'node:path';
import { localDir, redis as cfg } from '../stack-config.mjs';
import {
  aptInstall,
  commandPath,
  ensureDir,
  serviceStatus,
  spawnDetached,
  startService,
  stopService,
} from './helpers.mjs';

const name = 'redis';
const match = 'redis-server';
export const address = `${cfg.host}:${cfg.port}`;

export async function ensureInstalled() {
  if (!commandPath('redis-server')) await aptInstall(['redis-server']);
  if (!commandPath('redis-server'))
    throw new Error('redis: redis-server is still missing after apt-get install redis-server');
}

/** PING over a raw socket. */
export function isRunning() {
  return new Promise((resolve) => {
    const socket = net.connect({ host: cfg.host, port: cfg.port });
    let reply = '';
    const done = (ok) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1500, () => done(false));
    socket.on('connect', () => socket.write('PING\r\n'));
    socket.on('data', (chunk) => {
      reply += chunk;
      if (reply.includes('\r\n')) done(reply.startsWith('+PONG'));
    });
    socket.on('error', () => done(false));
  });
}

export function start() {
  return startService({
    name,
    match,
    port: cfg.port,
    healthy: isRunning,
    timeoutMs: 15_000,
    launch: () => {
      const dir = ensureDir(path.join(localDir, 'redis'));
      const args = [
        '--port',
        String(cfg.port),
        '--bind',
        cfg.host,
        '--dir',
        dir,
        '--daemonize',
        'no',
      ];
      return spawnDetached(name, 'redis-server', [
        ...args,
        '--save',
        '',
        '--appendonly',
        'no',
        '--logfile',
        '',
      ]);
    },
  });
}

export const stop = () => stopService(name, { match });
export const status = () => serviceStatus({ name, address, healthy: isRunning, match });
