import type { Logger } from 'pino';

/**
 * Graceful stop: hooks registered while starting run in reverse order on SIGTERM/SIGINT (stop
 * taking traffic first, then drain, then consumers commit, then clients close), each bounded
 * by the timeout so that a stuck dependency cannot keep the process alive forever.
 */
export interface Lifecycle {
  onStop(name: string, hook: () => Promise<void> | void): void;
  readonly stopping: boolean;
  stop(reason: string): Promise<void>;
  installSignalHandlers(): void;
}

export function createLifecycle(logger: Logger, timeoutMs: number): Lifecycle {
  const hooks: { name: string; hook: () => Promise<void> | void }[] = [];
  let stopping: Promise<void> | null = null;

  const runHook = async (name: string, hook: () => Promise<void> | void) => {
    let timer: NodeJS.Timeout | undefined;
    const started = Date.now();
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`timed out after ${timeoutMs} ms`)), timeoutMs);
    });
    try {
      await Promise.race([Promise.resolve().then(hook), timeout]);
      logger.debug({ hook: name, ms: Date.now() - started }, 'stopped');
    } catch (error) {
      logger.error({ err: error, hook: name }, 'stop hook failed');
    } finally {
      clearTimeout(timer);
    }
  };

  const lifecycle: Lifecycle = {
    onStop(name, hook) {
      hooks.push({ name, hook });
    },
    get stopping() {
      return stopping !== null;
    },
    stop(reason) {
      stopping ??= (async () => {
        logger.info({ reason }, 'stopping');
        for (const { name, hook } of [...hooks].reverse()) await runHook(name, hook);
        logger.info('stopped');
      })();
      return stopping;
    },
    installSignalHandlers() {
      for (const signal of ['SIGTERM', 'SIGINT'] as const) {
        process.once(signal, () => {
          void lifecycle.stop(signal).then(() => process.exit(0));
        });
      }
    },
  };
  return lifecycle;
}
