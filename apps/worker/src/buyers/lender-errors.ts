/**
 * How a failed lender-network or buyer call should be handled. Retryable: 5xx, 429, network errors, timeouts and
 * answers we cannot parse (a passing fault on their side). Final: any other 4xx (the network refused this lead).
 * Each carries its `kind` ('timeout', 'reset', 'http_5xx', 'malformed', …): the upstream-calls metric's label,
 * and how the buyers' waterfall tells a timed-out attempt from a failed one.
 */
export class RetryableLenderError extends Error {
  override readonly name = 'RetryableLenderError';
  constructor(
    message: string,
    readonly kind: string,
  ) {
    super(message);
  }
}

export class FinalLenderError extends Error {
  override readonly name = 'FinalLenderError';
  readonly kind = 'http_4xx';
  constructor(
    message: string,
    readonly statusCode: number,
    /** The network's field errors, by payload field, when the answer named any. */
    readonly fields?: Readonly<Record<string, string>>,
  ) {
    super(message);
  }
}

/** The kind of a request that got no answer (undici's error codes). */
export function transportFailureKind(error: unknown): string {
  const code = error instanceof Error ? ((error as NodeJS.ErrnoException).code ?? '') : '';
  if (/TIMEOUT/.test(code)) return 'timeout';
  if (/ECONNRESET|UND_ERR_SOCKET|EPIPE/.test(code)) return 'reset';
  if (/ECONNREFUSED/.test(code)) return 'refused';
  // A name resolving to an address the buyer may not be called at (guardedLookup, ADR 0024).
  if (code === 'ENOTPUBLIC') return 'address_refused';
  return 'network';
}

/** The kind of an answer whose status says it is worth asking again (429 or 5xx). */
export function retryableStatusKind(statusCode: number): string {
  return statusCode === 429 ? 'http_429' : 'http_5xx';
}
