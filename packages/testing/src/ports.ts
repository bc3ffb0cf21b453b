import { mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** Ports handed out to the test files of this machine, one file per port (its name). */
const CLAIMS = path.join(tmpdir(), 'challenge-port-claims');
/** Longer than any test file's platform lives; an older claim was left by a run that ended. */
const CLAIM_TTL_MS = 60 * 60 * 1000;

/** A port the kernel says nothing listens on now. */
function probePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/**
 * A free port for a process that listens on it later (its address goes into the others' env
 * first). The probe's socket is closed by then, and two test files starting platforms side by
 * side were handed the same port: one platform's gateway port answered by the other's subgraph
 * (HTTP 403, no gateway credential). So each port is also claimed, by a file created exclusively.
 */
export async function freePort(): Promise<number> {
  mkdirSync(CLAIMS, { recursive: true });
  for (;;) {
    const port = await probePort();
    const claim = path.join(CLAIMS, String(port));
    try {
      writeFileSync(claim, String(process.pid), { flag: 'wx' });
      return port;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const age = Date.now() - (statSync(claim, { throwIfNoEntry: false })?.mtimeMs ?? 0);
      if (age > CLAIM_TTL_MS) rmSync(claim, { force: true });
    }
  }
}
