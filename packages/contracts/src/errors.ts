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

/**
 * The one error shape of the whole API. `fields` maps a client field name to the message a person reads.
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
