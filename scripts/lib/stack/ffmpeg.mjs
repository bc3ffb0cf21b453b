/** ffmpeg and ffprobe for the media pipeline: a tool from Debian's ffmpeg package, not a process. */
import { aptInstall, commandPath } from './helpers.mjs';

export const tool = true;
const where = () =>
  commandPath('ffmpeg') && commandPath('ffprobe') ? commandPath('ffmpeg') : null;

export async function ensureInstalled() {
  if (!where()) await aptInstall(['ffmpeg']);
  if (!where())
    throw new Error('ffmpeg: ffmpeg/ffprobe still missing after apt-get install ffmpeg');
}

export const isRunning = async () => Boolean(where());
export const start = async () => ({ reused: true, path: where() });
export const stop = async () => ({ stopped: false });
export const status = async () => ({
  name: 'ffmpeg',
  state: where() ? 'installed' : 'missing',
  address: where(),
});
