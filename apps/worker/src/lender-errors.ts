/**
 * How a failed lender-network call should be handled. Retryable: 5xx, 429, network errors, timeouts and
 * answers we cannot parse (a passing fault on their side). Final: any other 4xx (the network refused this lead).
 */
export class RetryableLenderError extends Error {
  override readonly name = 'RetryableLenderError';
}

export class FinalLenderError extends Error {
  override readonly name = 'FinalLenderError';
  constructor(
    message: string,
    readonly statusCode: number,
    /** The network's field errors, by payload field, when the answer named any. */
    readonly fields?: Readonly<Record<string, string>>,
  ) {
    super(message);
  }
}
