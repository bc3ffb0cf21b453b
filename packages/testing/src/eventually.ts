/** Polls `check` until it stops throwing (and returns its value), or rethrows after the timeout. */
export async function eventually<T>(
  check: () => Promise<T> | T,
  timeoutMs = 20_000,
  intervalMs = 100,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, intervalMs));
    }
  }
}
