/**
 * Where `npm start`'s supervisor keeps each platform process's pid and stop marker, and the
 * commands on one process by name (`npm run stack -- kill|stop|start <name>`, ADR 91).
 */
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { runDir } from './stack-config.mjs';
import { SERVICES } from './platform.mjs';

export const platformRunDir = path.join(runDir, 'platform');
export const PROCESS_NAMES = [...SERVICES, 'gateway'];

/** The stop marker's path (`asPath`), or whether `npm run stack -- stop` left it. */
export function stoppedMarker(name, asPath = false) {
  const file = path.join(platformRunDir, `${name}.stopped`);
  return asPath ? file : existsSync(file);
}

function pidOf(name) {
  try {
    const pid = Number(readFileSync(path.join(platformRunDir, `${name}.pid`), 'utf8'));
    process.kill(pid, 0);
    return pid;
  } catch {
    return null;
  }
}

/** kill: SIGKILL (the supervisor starts it again); stop: SIGTERM, left stopped; start: again. */
export function controlProcess(command, name) {
  if (!PROCESS_NAMES.includes(name)) {
    throw new Error(`no platform process ${name}: one of ${PROCESS_NAMES.join(', ')}`);
  }
  const pid = pidOf(name);
  if (command === 'start') {
    rmSync(stoppedMarker(name, true), { force: true });
    return pid ? `${name} runs (pid ${pid})` : `${name}: the supervisor starts it`;
  }
  if (command === 'stop') writeFileSync(stoppedMarker(name, true), '');
  if (!pid) return `${name} is not running (is npm start running?)`;
  process.kill(pid, command === 'kill' ? 'SIGKILL' : 'SIGTERM');
  return command === 'kill'
    ? `${name} (pid ${pid}) killed; the supervisor starts it again`
    : `${name} (pid ${pid}) stopped; npm run stack -- start ${name} starts it again`;
}
