interface ShutdownLogger {
  info(details: object, message: string): void;
  error(details: object, message: string): void;
}

/**
 * On the first SIGINT or SIGTERM, runs `close` (finish in-flight work, release connections) and exits 0; exits 1
 * if closing fails or takes longer than `graceMs`.
 */
export function closeOnSignals(
  close: () => Promise<unknown>,
  logger: ShutdownLogger,
  graceMs = 10_000,
): void {
  let closing = false;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      if (closing) return;
      closing = true;
      logger.info({ signal }, 'shutting down');
      setTimeout(() => process.exit(1), graceMs).unref();
      close().then(
        () => process.exit(0),
        (err: unknown) => {
          logger.error({ err }, 'shutdown failed');
          process.exit(1);
        },
      );
    });
  }
}
