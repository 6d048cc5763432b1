import type { ErrorCode } from '@funnel/contracts/errors';
import { STEP_OUT_OF_ORDER } from '@funnel/contracts/messages';
import type { StepName } from '@funnel/contracts/steps';

/** An error that becomes the API's one error shape `{ error: { code, message, fields? } }`. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: ErrorCode,
    message: string,
    readonly fields?: Record<string, string>,
    /** The lead the answer names (DUPLICATE_LEAD's earlier lead), shown to the caller. */
    readonly leadId?: string,
    /** STEP_OUT_OF_ORDER's first unanswered step. */
    readonly nextStep?: StepName,
  ) {
    super(message);
    this.name = 'HttpError';
  }

  /** The borrower was submitted before: `earlierLeadId` only when the caller may know that lead. */
  static duplicateLead(earlierLeadId: string | undefined): HttpError {
    return new HttpError(
      409,
      'DUPLICATE_LEAD',
      'This borrower was already submitted recently; the lead is not posted again.',
      undefined,
      earlierLeadId,
    );
  }

  /** A step saved ahead of the first unanswered one, `nextStep`, where the visitor goes on. */
  static stepOutOfOrder(nextStep: StepName): HttpError {
    return new HttpError(409, 'STEP_OUT_OF_ORDER', STEP_OUT_OF_ORDER, undefined, undefined, nextStep);
  }

  static validation(fields: Record<string, string>): HttpError {
    const first = Object.values(fields)[0] ?? 'The request is not valid.';
    return new HttpError(400, 'VALIDATION_FAILED', first, fields);
  }
}
