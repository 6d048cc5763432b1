/**
 * A buyer's complaints about a lead's fields, brought back to our server field names: kept with the waterfall
 * attempt that drew them (issue 13). Each protocol names its fields its own way; each maps back through here.
 */
import * as z from 'zod';

const FIELD_NAME_MAX = 100;
const DESCRIPTION_MAX = 200;

/** One field error in our words. Never the value the buyer quoted: it may be an SSN or an account number. */
export const MappedFieldErrorSchema = z.object({
  /** Our server field name; the buyer's own name when the field is not a lead field (e.g. MinimumPrice). */
  field: z.string().max(FIELD_NAME_MAX),
  /** The buyer's field name as reported. */
  buyerField: z.string().max(FIELD_NAME_MAX),
  description: z.string().max(DESCRIPTION_MAX),
});
export type MappedFieldError = z.infer<typeof MappedFieldErrorSchema>;

/**
 * Maps `[buyer field, description]` pairs back to our names through `serverNameOf` (the protocol's payload field
 * → server field table), cut to what the audit trail keeps.
 */
export function mapFieldErrors(
  serverNameOf: Readonly<Record<string, string>>,
  errors: Iterable<readonly [buyerField: string, description: string]>,
): MappedFieldError[] {
  return [...errors].map(([buyerField, description]) => ({
    field: (serverNameOf[buyerField] ?? buyerField).slice(0, FIELD_NAME_MAX),
    buyerField: buyerField.slice(0, FIELD_NAME_MAX),
    description: description.slice(0, DESCRIPTION_MAX),
  }));
}
