import type { ErrorCode } from '@funnel/contracts/errors';

/** An error that becomes the API's one error shape `{ error: { code, message, fields? } }`. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: ErrorCode,
    message: string,
    readonly fields?: Record<string, string>,
  ) {
    super(message);
    this.name = 'HttpError';
  }

  static validation(fields: Record<string, string>): HttpError {
    const first = Object.values(fields)[0] ?? 'The request is not valid.';
    return new HttpError(400, 'VALIDATION_FAILED', first, fields);
  }
}
