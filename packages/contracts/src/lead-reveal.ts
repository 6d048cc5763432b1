/**
 * Revealing one of a lead's masked answers to an admin (issue 33, ADR 0021 "Revealing a lead's personal data"):
 * one field at a time, for a reason the audit log keeps with the field's name (never the value).
 */
import * as z from 'zod';
import { SENSITIVE_CLIENT_FIELDS, type ClientField, type SensitiveClientField } from './fields.js';

/** Sensitive answers (ADR 0002): an admin sees their last four letters or digits, never more; never the birth date. */
const LAST_FOUR_ONLY = SENSITIVE_CLIENT_FIELDS.filter(
  (field): field is Exclude<SensitiveClientField, 'dob'> => field !== 'dob',
);

/**
 * The answers an admin may reveal: those that name or reach the person in clear, the sensitive ones to their
 * last four only, as everywhere else in the API (decisions.md, ADR 0002).
 */
export const REVEALABLE_FIELDS = [
  'firstName',
  'lastName',
  'email',
  'phone',
  'streetAddress',
  'employerName',
  'employerPhone',
  ...LAST_FOUR_ONLY,
] as const satisfies readonly ClientField[];
export type RevealableField = (typeof REVEALABLE_FIELDS)[number];

export function isLastFourOnly(field: RevealableField): field is (typeof LAST_FOUR_ONLY)[number] {
  return (LAST_FOUR_ONLY as readonly string[]).includes(field);
}

export const REVEAL_REASON_MIN = 10;

/** `POST /api/v1/admin/leads/{leadId}/reveal`. */
export const LeadRevealRequestSchema = z.object({
  field: z.enum(REVEALABLE_FIELDS, {
    error: `field must be one of: ${REVEALABLE_FIELDS.join(', ')}.`,
  }),
  reason: z
    .string({ error: 'Say why you need to see this value.' })
    .trim()
    .min(
      REVEAL_REASON_MIN,
      `Say why you need to see this value, in at least ${REVEAL_REASON_MIN} characters.`,
    )
    .max(300, 'Keep the reason under 300 characters.'),
});
export type LeadRevealRequest = z.infer<typeof LeadRevealRequestSchema>;

export const LeadRevealSchema = z
  .object({
    leadId: z.string(),
    field: z.enum(REVEALABLE_FIELDS),
    value: z.string(),
    /** True for a sensitive answer: `value` is its last four, masked (`•••• 6789`). */
    lastFourOnly: z.boolean(),
  })
  .meta({ id: 'LeadReveal' });
export type LeadReveal = z.infer<typeof LeadRevealSchema>;
