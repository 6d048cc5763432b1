import type { FastifyBaseLogger } from 'fastify';

/** The places where the BFF answers around a failure instead of failing the request. */
export type HandledFailure =
  | 'buyer_return_terms'
  | 'buyer_test_lead'
  /** A failed partner submit could not free its idempotency key (a retry takes the stale claim over later). */
  | 'partner_key_release'
  /** The partner names' cache in Redis could not be read or written (the source is asked instead). */
  | 'partner_names_cache'
  /** The partner source did not answer (the configured names are served alone). */
  | 'partner_source'
  /** An outcome stream's second read of the outcome failed (the stream waits for the next push). */
  | 'outcome_reread';

/**
 * Told of a failure the BFF answers around (a fallback, a refusal): without it the fallback would hide an
 * outage. Each one is logged with its cause and counted on `funnel_handled_failures_total`.
 */
export type ReportFailure = (operation: HandledFailure, error: unknown) => void;

/** The counter a reporter counts on (`BffMetrics.handledFailures`). */
interface FailureCounter {
  handledFailures: { inc(labels: { operation: HandledFailure }): void };
}

export function failureReporter(log: FastifyBaseLogger, metrics: FailureCounter): ReportFailure {
  return (operation, error) => {
    metrics.handledFailures.inc({ operation });
    log.error({ err: error, operation }, 'failure answered around');
  };
}
