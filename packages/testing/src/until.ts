/** How long `until` keeps asking, and how often. */
export interface UntilOptions {
  /** Gives up after this long (default 15 s). */
  timeoutMs?: number;
  /** Asks again after this long (default 50 ms). */
  intervalMs?: number;
}

/**
 * Asks `probe` until it answers something other than `undefined` or `false`, and resolves to that answer: the one
 * way tests, fault scenarios and benchmarks wait for a condition another process brings about. A probe that throws
 * counts as "not yet" (a service still starting); when time runs out, the error names `what` and the probe's last
 * error, if any.
 */
export async function until<T>(
  what: string,
  probe: () => T | undefined | false | Promise<T | undefined | false>,
  { timeoutMs = 15_000, intervalMs = 50 }: UntilOptions = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const answer = await probe();
      if (answer !== undefined && answer !== false) return answer;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() > deadline) {
      const cause = lastError instanceof Error ? ` (last error: ${lastError.message})` : '';
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${cause}`);
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
