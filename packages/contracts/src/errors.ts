import * as z from 'zod';
import { StepNameSchema } from './landing.js';

/** Machine-readable error codes of the BFF API. */
export const ERROR_CODES = [
  'BAD_REQUEST',
  'VALIDATION_FAILED',
  'INCOMPLETE_LEAD',
  'SESSION_EXPIRED',
  'NOT_FOUND',
  'RATE_LIMITED',
  'PAYLOAD_TOO_LARGE',
  'URI_TOO_LONG',
  'HEADERS_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'METHOD_NOT_ALLOWED',
  'REQUEST_TIMEOUT',
  'UNAUTHORIZED',
  'FORBIDDEN',
  'CONFLICT',
  'STEP_OUT_OF_ORDER',
  'DUPLICATE_LEAD',
  'IDEMPOTENCY_KEY_REUSED',
  'RETURN_WINDOW_CLOSED',
  'RETURN_CAP_REACHED',
  'ALREADY_REPORTED',
  'INTERNAL',
  'UNAVAILABLE',
] as const;
export const ErrorCodeSchema = z.enum(ERROR_CODES).meta({ id: 'ErrorCode' });
export type ErrorCode = z.infer<typeof ErrorCodeSchema>;

/** The longest `X-Request-Id` a client's request may carry for the server to keep it. */
const REQUEST_ID_MAX_LENGTH = 128;

/**
 * A request id a client or proxy may choose: letters, digits and `-_.:`, so that it can sit in a header, a log
 * line or a support ticket without escaping, and never carries a person's data by accident of its shape.
 */
export const REQUEST_ID_PATTERN = new RegExp(`^[A-Za-z0-9._:-]{1,${REQUEST_ID_MAX_LENGTH}}$`);

/**
 * The one error shape of the whole API. `fields` maps a client field name to the message a person reads;
 * `requestId` is the id the answer's `X-Request-Id` header and the server's log lines carry, to quote to support.
 */
export const ApiErrorSchema = z
  .object({
    error: z.object({
      code: ErrorCodeSchema,
      message: z.string(),
      fields: z.record(z.string(), z.string()).optional(),
      /** DUPLICATE_LEAD: the earlier lead of the same borrower, when the caller posted it. */
      leadId: z.string().optional(),
      /** STEP_OUT_OF_ORDER: the first unanswered step, where the visitor goes on. */
      nextStep: StepNameSchema.optional(),
      /** The request's id: the one it was sent with in `X-Request-Id` when valid, a new one otherwise. */
      requestId: z.string().max(REQUEST_ID_MAX_LENGTH).optional(),
    }),
  })
  .meta({ id: 'ApiError' });
export type ApiError = z.infer<typeof ApiErrorSchema>;

/** Turns a zod error into `fields`: the first message for each top-level field. */
export function fieldErrors(error: z.ZodError): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = issue.path.length > 0 ? String(issue.path[0]) : '_';
    if (!(key in fields)) fields[key] = issue.message;
  }
  return fields;
}
