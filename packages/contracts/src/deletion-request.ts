import * as z from 'zod';
import { EmailSchema } from './steps.js';
import { PrivacyPhoneSchema } from './privacy.js';

/**
 * POST /api/v1/admin/deletion-requests: an operator, having verified who asks, erases every lead of an email
 * address and/or phone number, with its consent record and queued jobs. At least one of the two is required.
 */
export const DeletionRequestSchema = z
  .object({
    email: EmailSchema.optional(),
    phone: PrivacyPhoneSchema.optional(),
  })
  .refine((request) => request.email !== undefined || request.phone !== undefined, {
    error: 'Give an email address, a phone number or both.',
    path: ['email'],
  });
export type DeletionRequest = z.input<typeof DeletionRequestSchema>;
export type DeletionRequestPayload = z.output<typeof DeletionRequestSchema>;

/** What a deletion erased; the request itself is recorded in the privacy-request stream under `requestId`. */
export const DeletionResultSchema = z.object({
  requestId: z.string(),
  leadsDeleted: z.number().int().nonnegative(),
  jobsRemoved: z.number().int().nonnegative(),
});
export type DeletionResult = z.infer<typeof DeletionResultSchema>;
