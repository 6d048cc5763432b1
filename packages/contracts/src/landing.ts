// The landing form and the fields it shares with the steps, apart from the step registry: the first screen
// loads this module, and must not load every step's rules with it (the phone metadata alone is ~35 kB).
import * as z from 'zod';
import {
  EMAIL_INVALID,
  EMAIL_REQUIRED,
  UNSUPPORTED_CHARACTERS,
  ZIP_CODE_LENGTH,
  ZIP_CODE_NOT_TEXT,
  ZIP_CODE_REQUIRED,
  missingOr,
} from './messages.js';
import { LoanAmountSchema, LoanReasonSchema } from './options.js';
import { hasOnlySupportedCharacters } from './rules/text.js';

/** RFC 5321's limit on a forward path. */
const EMAIL_MAX = 254;

/**
 * A trimmed text answer in Unicode NFC. A missing key, a non-string and an all-blank string all read `required`:
 * to a person they are the same empty field. The required check aborts so an empty field shows only that message.
 * Control, bidi-override and broken characters are refused with one message (`rules/text.ts`). A value that is
 * present but not a string gets `notText` (the required message unless a field has a better one).
 */
export function requiredText(required: string, notText = required) {
  return z
    .string({ error: missingOr(required, notText) })
    .trim()
    .refine(hasOnlySupportedCharacters, { error: UNSUPPORTED_CHARACTERS, abort: true })
    .normalize('NFC')
    .min(1, { error: required, abort: true });
}

// Field schemas shared by several forms.

/** A ZIP code: five digits after trimming. */
export const ZipCodeSchema = requiredText(ZIP_CODE_REQUIRED, ZIP_CODE_NOT_TEXT).regex(/^\d{5}$/, {
  error: ZIP_CODE_LENGTH,
});

/** An email address, trimmed, with a form's messages for a missing and a malformed one. */
export function emailSchema(required: string, invalid: string) {
  return requiredText(required).max(EMAIL_MAX, { error: invalid }).regex(z.regexes.email, { error: invalid });
}

/** An email address, trimmed: the wizard's messages. */
export const EmailSchema = emailSchema(EMAIL_REQUIRED, EMAIL_INVALID);

/**
 * The landing form (spec §2): amount, loan reason and ZIP code, plus the email of a deep link
 * (`?email=&loan_reason=`) when the visitor arrived with one, so the new lead starts pre-filled.
 */
export const LandingSchema = z.object({
  amount: LoanAmountSchema,
  loanReason: LoanReasonSchema,
  zipCode: ZipCodeSchema,
  email: EmailSchema.optional(),
});
export type Landing = z.input<typeof LandingSchema>;
export type LandingPayload = z.output<typeof LandingSchema>;

/** The wizard's screens in order; each name is also the screen's route ('/lgname'). */
export const STEP_NAMES = [
  'lgname',
  'email',
  'cellphone',
  'besttimecontact',
  'dob',
  'address',
  'hometime',
  'ownhome',
  'incomesource',
  'emptime',
  'unsecureddebtamount',
  'payfreequency',
  'grossincome',
  'nextpaydate',
  'empinfor',
  'workphone',
  'deposit',
  'aba',
  'banktype',
  'banktime',
  'bankaccount',
  'driverid',
  'owncar',
  'creditscore',
  'ssn',
] as const;
export const StepNameSchema = z.enum(STEP_NAMES);
export type StepName = z.infer<typeof StepNameSchema>;
