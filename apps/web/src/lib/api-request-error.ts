import type { ErrorCode } from '@funnel/contracts/errors';

// Kept apart from the API client so code that only inspects failures (the query client's retry rule, which ships
// in the entry chunk) does not pull zod in with it.

/** What a request that never got an answer reports (offline, DNS, connection reset). */
export const NETWORK_FAILED = 'NETWORK_FAILED';

/** A failed BFF call, carrying the API's one error shape: a code, a message and per-field messages. */
export class ApiRequestError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode | typeof NETWORK_FAILED,
    message: string,
    readonly fields: Readonly<Record<string, string>> = {},
  ) {
    super(message);
    this.name = 'ApiRequestError';
  }

  /** True for an answer the visitor's input caused (4xx), which retrying cannot fix. */
  get isClientError(): boolean {
    return this.status >= 400 && this.status < 500;
  }
}
