/**
 * After a deploy, an open tab may ask for a code chunk that no longer exists. Reloading fetches the
 * new build; the guard (once per 10 s, remembered across the reload) prevents a reload loop when
 * the chunk is missing for another reason.
 */
export const CHUNK_RELOAD_GUARD_MS = 10_000;
export const CHUNK_RELOAD_STORAGE_KEY = 'chunk-reload-at';

const CHUNK_ERROR_PATTERNS = [
  'Failed to fetch dynamically imported module',
  'error loading dynamically imported module',
  'Importing a module script failed',
  'Unable to preload CSS',
];

export function isChunkLoadError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  return (
    error.name === 'ChunkLoadError' ||
    CHUNK_ERROR_PATTERNS.some((pattern) => error.message.includes(pattern))
  );
}

/** Reloads the page unless it was already reloaded for this reason within the guard window. */
export function reloadForNewBuild(now: number = Date.now()): boolean {
  try {
    const last = Number(window.sessionStorage.getItem(CHUNK_RELOAD_STORAGE_KEY));
    if (Number.isFinite(last) && last > 0 && now - last < CHUNK_RELOAD_GUARD_MS) return false;
    window.sessionStorage.setItem(CHUNK_RELOAD_STORAGE_KEY, String(now));
  } catch {
    return false;
  }
  window.location.reload();
  return true;
}
