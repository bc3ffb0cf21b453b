/** Debian's Chromium for the browser tests (driven by playwright-core): a tool, not a process. */
import { aptInstall, commandPath } from './helpers.mjs';

export const tool = true;
/** Path of the chromium executable, or null. */
export const chromiumPath = () => commandPath('chromium');

export async function ensureInstalled() {
  if (!chromiumPath()) await aptInstall(['chromium']);
  if (!chromiumPath()) throw new Error('chromium: still missing after apt-get install chromium');
}

export const isRunning = async () => Boolean(chromiumPath());
export const start = async () => ({ reused: true, path: chromiumPath() });
export const stop = async () => ({ stopped: false });
export const status = async () => ({
  name: 'chromium',
  state: chromiumPath() ? 'installed' : 'missing',
  address: chromiumPath(),
});
