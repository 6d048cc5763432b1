/**
 * The two privacy request forms (spec §2 "Privacy forms", §5, §7): unsubscribe and do-not-sell-my-information,
 * with the spec §5 rules and messages, what the BFF answers, and the partners list of the Partners page.
 * The BFF validates with these schemas and the browser runs the same ones before sending.
 */
import * as z from 'zod';
import {
  CITY_REQUIRED,
  PHONE_INVALID,
  PHONE_REQUIRED,
  PRIVACY_ADDRESS_LENGTH,
  PRIVACY_FIRST_NAME_REQUIRED,
  PRIVACY_LAST_NAME_REQUIRED,
  PRIVACY_PHONE_LENGTH,
  PRIVACY_STATE_REQUIRED,
  PRIVACY_ZIP_CODE_LENGTH,
  STATE_RESIDENCY_REQUIRED,
  UNSUBSCRIBE_EMAIL_INVALID,
  UNSUPPORTED_CHARACTERS,
  maxLengthMessage,
} from './messages.js';
import { US_STATES, UnsubscribeReasonSchema, labelFor, toUsStateCode, type Option } from './options.js';
import { isValidUsPhone, normalizePhoneDigits } from './rules/phone.js';
import { hasOnlySupportedCharacters } from './rules/text.js';
import { emailSchema, requiredText } from './landing.js';
import { EmailSchema } from './steps.js';

// Length caps the spec does not state, as on the wizard's text fields: they bound what a client can store.
const NAME_MAX = 50;
const TEXT_MAX = 100;
/** What a do-not-sell request records as its country when none is sent: the service is US-only. */
const US_COUNTRY = 'United States';
/** Spec §5: the privacy forms' phone input holds at most 14 characters, the length of '(212)-555-0142'. */
const PHONE_INPUT_MAX = 14;
const ADDRESS_MIN = 5;

/**
 * The phone of both privacy forms: at most 14 characters as typed, digits plus the mask's punctuation, and
 * 10 digits once that punctuation is stripped (spec §5), forming a NANP number (docs/product-rules.md §phone-numbers). Outputs the
 * 10 digits.
 */
export const PrivacyPhoneSchema = requiredText(PHONE_REQUIRED)
  .max(PHONE_INPUT_MAX, { error: PRIVACY_PHONE_LENGTH, abort: true })
  .regex(/^[\d()\-\s_.+]+$/, { error: PHONE_INVALID, abort: true })
  .refine((value) => normalizePhoneDigits(value).length === 10, { error: PRIVACY_PHONE_LENGTH, abort: true })
  .refine((value) => isValidUsPhone(normalizePhoneDigits(value)), { error: PHONE_INVALID })
  .transform(normalizePhoneDigits);

// Unsubscribe.

/** The unsubscribe form's email: spec §5 gives one message, 'invalid email address', for empty and malformed. */
export const UnsubscribeEmailSchema = emailSchema(UNSUBSCRIBE_EMAIL_INVALID, UNSUBSCRIBE_EMAIL_INVALID);

/** POST /api/v1/privacy/unsubscribe: stop marketing email, text and calls to this contact. */
export const UnsubscribeRequestSchema = z
  .object({
    email: UnsubscribeEmailSchema,
    phone: PrivacyPhoneSchema,
    reason: UnsubscribeReasonSchema,
  })
  .meta({ id: 'UnsubscribeRequest' });
/** What the unsubscribe form sends. */
export type UnsubscribeRequest = z.input<typeof UnsubscribeRequestSchema>;
/** An unsubscribe request after validation (trimmed email, phone as 10 digits). */
export type UnsubscribeRequestPayload = z.output<typeof UnsubscribeRequestSchema>;

// Do not sell my information.

/**
 * The states whose residents the do-not-sell form names (spec §2), and 'NONE' for a visitor living elsewhere:
 * the request is still recorded and honoured, whatever the answer.
 */
const PRIVACY_LAW_STATES = ['CA', 'NV', 'VA', 'UT', 'CT'] as const;
export const STATE_RESIDENCY_OPTIONS: readonly Option<string>[] = [
  ...PRIVACY_LAW_STATES.map((code) => ({ value: code, label: labelFor(US_STATES, code)! })),
  { value: 'NONE', label: 'None of these states' },
];
export const StateResidencySchema = z.enum([...PRIVACY_LAW_STATES, 'NONE'], {
  error: STATE_RESIDENCY_REQUIRED,
});
export type StateResidency = z.infer<typeof StateResidencySchema>;

/** POST /api/v1/privacy/do-not-sell: do not sell or share this person's information with partners. */
export const DoNotSellRequestSchema = z
  .object({
    stateResidencyPrompt: StateResidencySchema,
    firstName: requiredText(PRIVACY_FIRST_NAME_REQUIRED).max(NAME_MAX, {
      error: maxLengthMessage('First name', NAME_MAX),
    }),
    // docs/product-rules.md §privacy-requests: optional, as its placeholder says; a blank field counts as not given.
    middleName: z
      .string()
      .trim()
      .refine(hasOnlySupportedCharacters, { error: UNSUPPORTED_CHARACTERS, abort: true })
      .normalize('NFC')
      .max(NAME_MAX, { error: maxLengthMessage('Middle name', NAME_MAX) })
      .nullish()
      .transform((value) => value || undefined),
    lastName: requiredText(PRIVACY_LAST_NAME_REQUIRED).max(NAME_MAX, {
      error: maxLengthMessage('Last name', NAME_MAX),
    }),
    email: EmailSchema,
    phone: PrivacyPhoneSchema,
    // A US-only service (docs/decisions-addendum.md): the form asks no country; an API client may still send one.
    country: z
      .string()
      .trim()
      .max(TEXT_MAX, { error: maxLengthMessage('Country', TEXT_MAX) })
      .optional()
      .transform((value) => value || US_COUNTRY),
    // Spec §5 gives one message for a missing, short, long or non-numeric ZIP code.
    zip: z
      .string({ error: PRIVACY_ZIP_CODE_LENGTH })
      .trim()
      .regex(/^\d{5}$/, {
        error: PRIVACY_ZIP_CODE_LENGTH,
      }),
    // A US state by code or name, stored as its code; anything else reads as "not chosen" like a select.
    state: z.string({ error: PRIVACY_STATE_REQUIRED }).transform((value, ctx) => {
      const code = toUsStateCode(value);
      if (code === undefined) {
        ctx.issues.push({ code: 'custom', message: PRIVACY_STATE_REQUIRED, input: value });
        return z.NEVER;
      }
      return code;
    }),
    // Spec §5: 'Address must be 5 characters long' for an empty address too (docs/product-rules.md §messages keeps it).
    address: requiredText(PRIVACY_ADDRESS_LENGTH)
      .min(ADDRESS_MIN, { error: PRIVACY_ADDRESS_LENGTH, abort: true })
      .max(TEXT_MAX, { error: maxLengthMessage('Address', TEXT_MAX) }),
    city: requiredText(CITY_REQUIRED).max(TEXT_MAX, { error: maxLengthMessage('City', TEXT_MAX) }),
  })
  .meta({ id: 'DoNotSellRequest' });
/** What the do-not-sell form sends. */
export type DoNotSellRequest = z.input<typeof DoNotSellRequestSchema>;
/** A do-not-sell request after validation (trimmed text, phone as 10 digits, state as its code). */
export type DoNotSellRequestPayload = z.output<typeof DoNotSellRequestSchema>;

// What the BFF answers and records.

/**
 * The answer to either request (spec §7: `status` 200 is success, `message` is shown in the alert).
 * A repeated identical request gets the same answer.
 */
export const PrivacyRequestResultSchema = z
  .object({ status: z.number().int(), message: z.string() })
  .meta({ id: 'PrivacyRequestResult' });
export type PrivacyRequestResult = z.infer<typeof PrivacyRequestResultSchema>;

/** Shown after an accepted unsubscribe request. */
export const UNSUBSCRIBE_CONFIRMATION =
  'Thank you. We have received your request and will stop sending marketing emails, texts and calls to this ' +
  'email address and phone number. It can take up to 48 hours for the opt-out to take full effect.';

/** Shown after an accepted do-not-sell request. */
export const DO_NOT_SELL_CONFIRMATION =
  'Thank you. We have received your request: we will not sell or share your personal information with ' +
  'marketing partners from now on.';

/** The two kinds of privacy request, as recorded. */
export const PRIVACY_REQUEST_TYPES = ['unsubscribe', 'do-not-sell'] as const;
export const PrivacyRequestTypeSchema = z.enum(PRIVACY_REQUEST_TYPES);
export type PrivacyRequestType = z.infer<typeof PrivacyRequestTypeSchema>;

/**
 * Why a lead must not be shared with marketing partners: the visitor sent the do-not-sell form from the
 * browser holding the lead, or the browser sent the Global Privacy Control signal (`Sec-GPC: 1`,
 * docs/product-rules.md §privacy-requests).
 */
export const DO_NOT_SELL_SOURCES = ['do-not-sell-request', 'global-privacy-control'] as const;
export const DoNotSellSourceSchema = z.enum(DO_NOT_SELL_SOURCES);
export type DoNotSellSource = z.infer<typeof DoNotSellSourceSchema>;

/** The do-not-sell flag stored on a lead; the first reason and time are kept. */
export const DoNotSellFlagSchema = z.object({ source: DoNotSellSourceSchema, at: z.string() });
export type DoNotSellFlag = z.infer<typeof DoNotSellFlagSchema>;

// Partners page.

/** GET /api/v1/partners: the fixed partner names, then those of the configured partner source. */
export const PartnersSchema = z.object({ partners: z.array(z.string()) }).meta({ id: 'Partners' });
export type Partners = z.infer<typeof PartnersSchema>;

// The privacy-request log (operator).

/** GET /api/v1/admin/privacy-requests: the requests made between two UTC days (`to` included), oldest first. */
export const PrivacyRequestLogQuerySchema = z
  .object({
    from: z.iso.date(),
    to: z.iso.date(),
    limit: z.coerce.number().int().min(1).max(1000).default(500),
  })
  .refine((q) => q.from <= q.to, { error: "'from' must not be after 'to'.", path: ['to'] });
export type PrivacyRequestLogQuery = z.infer<typeof PrivacyRequestLogQuerySchema>;

/**
 * One logged privacy request. `request` is the request as sent (it names the person); it is absent once a
 * deletion request erased it (`erasedAt`), and for requests that named nobody (Global Privacy Control, erasures).
 * `details` names nobody and is kept: the unsubscribe reason, the state of residence, what an erasure removed.
 */
export const PrivacyRequestLogEntrySchema = z.object({
  requestId: z.string(),
  type: z.enum([...PRIVACY_REQUEST_TYPES, 'deletion']),
  source: z.enum(['form', 'global-privacy-control', 'operator']),
  at: z.string(),
  leadId: z.string().optional(),
  details: z.record(z.string(), z.unknown()),
  request: z.record(z.string(), z.unknown()).optional(),
  erasedAt: z.string().optional(),
});
export const PrivacyRequestLogSchema = z.object({ requests: z.array(PrivacyRequestLogEntrySchema) });
export type PrivacyRequestLog = z.infer<typeof PrivacyRequestLogSchema>;
