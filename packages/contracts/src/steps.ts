/**
 * The wizard: the landing form, the 25 step screens in order (docs/product-rules.md §wizard-order-and-progress: spec §2's 24 steps plus
 * /besttimecontact after /cellphone), each with the client fields it saves and the zod schema carrying the
 * spec §5 rules and messages, plus the rules that need more than one payload (cross-field checks, "today",
 * the next step of a stored lead). The BFF and the browser run the same code.
 */
import * as z from 'zod';
import type { ClientField } from './fields.js';
import {
  BANK_ACCOUNT_DIGITS_ONLY,
  BANK_ACCOUNT_REQUIRED,
  BANK_ACCOUNT_TOO_LONG,
  BANK_ACCOUNT_TOO_SHORT,
  BANK_NAME_REQUIRED,
  CHOOSE_AN_ANSWER,
  DOB_DAY_REQUIRED,
  DOB_INVALID,
  DOB_MONTH_REQUIRED,
  DOB_REQUIRED,
  DOB_UNDER_18,
  DOB_YEAR_REQUIRED,
  EMPLOYER_NAME_REQUIRED,
  FIRST_NAME_REQUIRED,
  ISSUING_STATE_INVALID,
  ISSUING_STATE_REQUIRED,
  JOB_TITLE_REQUIRED,
  LAST_NAME_REQUIRED,
  LICENSE_ID_REQUIRED,
  LICENSE_ID_TOO_LONG,
  LICENSE_ID_TOO_SHORT,
  PAY_DATE_NOT_BUSINESS_DAY,
  PAY_DATE_OUT_OF_WINDOW,
  PHONE_INVALID,
  PHONE_REQUIRED,
  ROUTING_NUMBER_INVALID,
  ROUTING_NUMBER_LENGTH,
  ROUTING_NUMBER_REQUIRED,
  SSN_INVALID,
  SSN_NOT_ISSUABLE,
  SSN_REQUIRED,
  STREET_ADDRESS_REQUIRED,
  STREET_ADDRESS_SPECIAL_CHARACTERS,
  WORK_PHONE_LENGTH,
  WORK_PHONE_SAME_AS_PERSONAL,
  maxLengthMessage,
} from './messages.js';
import {
  BankAccountTypeSchema,
  BankTenureSchema,
  ContactTimeSchema,
  CreditScoreSchema,
  DOB_MINIMUM_AGE,
  dobYearRange,
  DirectDepositSchema,
  EmployerTenureSchema,
  HomeOwnershipSchema,
  IncomeSourceSchema,
  LoanAmountSchema,
  MonthlyIncomeSchema,
  OwnCarSchema,
  PayFrequencySchema,
  ResidenceDurationSchema,
  UnsecuredDebtSchema,
  toUsStateCode,
} from './options.js';
import {
  EmailSchema,
  LandingSchema,
  STEP_NAMES,
  StepNameSchema,
  ZipCodeSchema,
  requiredText,
  type Landing,
  type LandingPayload,
  type StepName,
} from './landing.js';
import { isValidRoutingNumber } from './rules/aba.js';
import { isAtLeastAge } from './rules/age.js';
import { daysInMonth, formatIsoDate, isIsoDate } from './rules/calendar-date.js';
import { isBankBusinessDay, payDateWindow } from './rules/pay-dates.js';
import { isValidUsPhone, normalizePhoneDigits } from './rules/phone.js';
import { hasSsnFormat, isValidSsn, ssnDigits } from './rules/ssn.js';

// Length caps the spec does not state: they bound what a client can store, far above any real answer.
const NAME_MAX = 50;
const TEXT_MAX = 100;

const LICENSE_ID_MIN = 2;
const LICENSE_ID_MAX = 25;
const BANK_ACCOUNT_MIN = 4;
/** docs/product-rules.md §bank-details: NACHA's DFI account number field holds 17 characters. */
const BANK_ACCOUNT_MAX = 17;

function cappedText(required: string, label: string, max: number) {
  return requiredText(required).max(max, { error: maxLengthMessage(label, max) });
}

/**
 * What the masked input sends, '(212) 555-1234' (the spec's '(212)-555-1234' is still taken), or what an API
 * client sends, '2125551234'.
 */
const PHONE_SHAPE = /^(?:\(\d{3}\)[-\s]\d{3}-\d{4}|\d{10})$/;
/** Characters a phone input may hold while being typed: digits and the mask's punctuation. */
const PHONE_CHARACTERS = /^[\d()\-\s_]+$/;

function isUsPhone(value: string): boolean {
  return PHONE_SHAPE.test(value) && isValidUsPhone(normalizePhoneDigits(value));
}

/**
 * A US phone number, '(XXX)-XXX-XXXX' or 10 digits, stored as its 10 digits; a valid NANP number
 * (docs/product-rules.md §phone-numbers: area code and exchange may not start with 0 or 1, checked by libphonenumber's metadata).
 */
export const PhoneSchema = requiredText(PHONE_REQUIRED)
  .refine(isUsPhone, { error: PHONE_INVALID })
  .transform(normalizePhoneDigits);

/**
 * The work phone: the phone rules, plus spec §5's own message when a typed number (digits and mask
 * punctuation only) does not have 10 digits, such as the unfinished mask '(212)-555-12__'.
 */
export const WorkPhoneSchema = requiredText(PHONE_REQUIRED)
  .refine((value) => !PHONE_CHARACTERS.test(value) || value.replace(/\D/g, '').length === 10, {
    error: WORK_PHONE_LENGTH,
    abort: true,
  })
  .refine(isUsPhone, { error: PHONE_INVALID })
  .transform(normalizePhoneDigits);

/** Spec §5: letters, digits, spaces and - / ' ( ) & only. */
const STREET_ADDRESS_CHARACTERS = /^[A-Za-z0-9 \-/'()&.,#]+$/;

// The landing form's schemas live in landing.ts (kept out of the first screen's bundle); re-exported here.
export { EmailSchema, LandingSchema, STEP_NAMES, StepNameSchema, ZipCodeSchema };
export type { Landing, LandingPayload, StepName };

// The steps.

/** A step's schema: a zod object over client field names only. */
type StepObject = z.ZodObject<{ [K in ClientField]?: z.ZodType }>;

/**
 * What each step saves, with the spec §5 rules and messages. Unknown keys are stripped, so a step can never
 * write another step's field. Checks that need the stored lead or today's date are in
 * {@link validateStepAgainstLead}. Each is named (`LgnameStep`, …) in the API document, see {@link STEP_SCHEMAS}.
 */
const STEP_FORMS = {
  lgname: z.object({
    firstName: cappedText(FIRST_NAME_REQUIRED, 'First name', NAME_MAX),
    lastName: cappedText(LAST_NAME_REQUIRED, 'Last name', NAME_MAX),
    // Asked here only when the loan reason came in through a deep link, which has no amount.
    amount: LoanAmountSchema.optional(),
  }),
  email: z.object({ email: EmailSchema }),
  cellphone: z.object({ phone: PhoneSchema }),
  besttimecontact: z.object({ bestTimeContact: ContactTimeSchema }),
  dob: z.object({
    // The age check needs today: validateStepAgainstLead.
    dob: requiredText(DOB_REQUIRED).refine(isIsoDate, { error: DOB_INVALID }),
  }),
  address: z.object({
    streetAddress: cappedText(STREET_ADDRESS_REQUIRED, 'Street address', TEXT_MAX).regex(
      STREET_ADDRESS_CHARACTERS,
      { error: STREET_ADDRESS_SPECIAL_CHARACTERS },
    ),
    zipCode: ZipCodeSchema,
  }),
  hometime: z.object({ currentResidenceDuration: ResidenceDurationSchema }),
  ownhome: z.object({ residenceOwnership: HomeOwnershipSchema }),
  incomesource: z.object({ incomeSource: IncomeSourceSchema }),
  emptime: z.object({ currentCompanyDuration: EmployerTenureSchema }),
  unsecureddebtamount: z.object({ unsecuredDebtAmount: UnsecuredDebtSchema }),
  payfreequency: z.object({ incomePaymentFrequency: PayFrequencySchema }),
  grossincome: z.object({ monthlyIncome: MonthlyIncomeSchema }),
  nextpaydate: z.object({
    // The window (today to 30 days ahead, business days) needs today: validateStepAgainstLead.
    incomeNextDate1: requiredText(CHOOSE_AN_ANSWER).refine(isIsoDate, { error: PAY_DATE_OUT_OF_WINDOW }),
  }),
  empinfor: z.object({
    employerName: cappedText(EMPLOYER_NAME_REQUIRED, 'Employer name', TEXT_MAX),
    jobTitle: cappedText(JOB_TITLE_REQUIRED, 'Job title', TEXT_MAX),
  }),
  workphone: z.object({ employerPhone: WorkPhoneSchema }),
  deposit: z.object({ getDirectDeposit: DirectDepositSchema }),
  aba: z.object({
    routingNumber: requiredText(ROUTING_NUMBER_REQUIRED)
      .regex(/^\d{9}$/, { error: ROUTING_NUMBER_LENGTH, abort: true })
      .refine(isValidRoutingNumber, { error: ROUTING_NUMBER_INVALID }),
    // Shown from the routing lookup, typed by the visitor only when no directory knows the number. The BFF
    // replaces it with the directory's name whenever it knows the number.
    bankName: cappedText(BANK_NAME_REQUIRED, 'Bank name', TEXT_MAX),
  }),
  banktype: z.object({ bankAccountType: BankAccountTypeSchema }),
  banktime: z.object({ currentBankDuration: BankTenureSchema }),
  bankaccount: z.object({
    bankAccount: requiredText(BANK_ACCOUNT_REQUIRED)
      .regex(/^\d+$/, { error: BANK_ACCOUNT_DIGITS_ONLY, abort: true })
      .min(BANK_ACCOUNT_MIN, { error: BANK_ACCOUNT_TOO_SHORT })
      .max(BANK_ACCOUNT_MAX, { error: BANK_ACCOUNT_TOO_LONG }),
  }),
  driverid: z.object({
    licenseID: requiredText(LICENSE_ID_REQUIRED)
      .min(LICENSE_ID_MIN, { error: LICENSE_ID_TOO_SHORT })
      .max(LICENSE_ID_MAX, { error: LICENSE_ID_TOO_LONG }),
    // Free text from an autocomplete: a state's code or name in any case, stored as the code.
    issuingState: requiredText(ISSUING_STATE_REQUIRED).transform((value, ctx) => {
      const code = toUsStateCode(value);
      if (code === undefined) {
        ctx.issues.push({ code: 'custom', message: ISSUING_STATE_INVALID, input: value });
        return z.NEVER;
      }
      return code;
    }),
  }),
  owncar: z.object({ ownCar: OwnCarSchema }),
  creditscore: z.object({ creditScoreRating: CreditScoreSchema }),
  ssn: z.object({
    socialSecurityNumber: requiredText(SSN_REQUIRED)
      .refine(hasSsnFormat, { error: SSN_INVALID, abort: true })
      .refine(isValidSsn, { error: SSN_NOT_ISSUABLE })
      .transform(ssnDigits),
  }),
} as const satisfies Record<StepName, StepObject>;

/** The name of step `name`'s body in the API document: `lgname` → `LgnameStep`. */
export function stepSchemaId(name: StepName): string {
  return `${name[0]!.toUpperCase()}${name.slice(1)}Step`;
}

/**
 * Each step's schema, with its id in zod's registry, so the OpenAPI document names it (`$ref`) and a generated
 * client gets one named type per step body.
 */
export const STEP_SCHEMAS = Object.fromEntries(
  STEP_NAMES.map((name) => [name, STEP_FORMS[name].meta({ id: stepSchemaId(name) })]),
) as unknown as typeof STEP_FORMS;
export type StepSchemas = typeof STEP_SCHEMAS;
/** What a client sends to save step `N`. */
export type StepInput<N extends StepName> = z.input<StepSchemas[N]>;
/** Step `N`'s answers after validation, as stored (phone and SSN as digits, state as its code). */
export type StepPayload<N extends StepName> = z.output<StepSchemas[N]>;

/** The question each screen asks. */
const STEP_TITLES: Record<StepName, string> = {
  lgname: 'What is your name?',
  email: 'Where should we send your loan request updates?',
  cellphone: 'What is your phone number?',
  besttimecontact: 'When is the best time to contact you?',
  dob: 'What is your date of birth?',
  address: 'What is your street address?',
  hometime: 'How long have you lived at your current address?',
  ownhome: 'Do you own or rent your home?',
  incomesource: 'What is your source of income?',
  emptime: 'How long have you been with your current employer?',
  unsecureddebtamount: 'How much unsecured debt do you have to pay?',
  payfreequency: 'How often do you get paid?',
  grossincome: 'What is your gross monthly income?',
  nextpaydate: 'When is your next pay date?',
  empinfor: 'Who is your employer?',
  workphone: 'What is your work phone number?',
  deposit: 'Do you get direct deposit?',
  aba: 'What is your bank routing number?',
  banktype: 'What type of bank account do you have?',
  banktime: 'How long have you been at your current bank?',
  bankaccount: 'What is your bank account number?',
  driverid: "What is your driver's license or state ID number?",
  owncar: 'Do you own a car?',
  creditscore: 'How would you rate your credit score?',
  ssn: 'What is your Social Security Number?',
};

/** One screen of the wizard. */
export interface StepDefinition<N extends StepName = StepName> {
  readonly name: N;
  /** The screen's route. */
  readonly path: `/${N}`;
  /** The question the screen asks. */
  readonly title: string;
  /** The client fields the step saves: exactly the keys of `schema`. */
  readonly fields: readonly (keyof StepSchemas[N]['shape'] & ClientField)[];
  /** The fields without which the step counts as unanswered (lgname's amount is optional). */
  readonly requiredFields: readonly ClientField[];
  readonly schema: StepSchemas[N];
}

/** Any one step, discriminated by `name`. */
export type AnyStepDefinition = { [N in StepName]: StepDefinition<N> }[StepName];

function defineStep<N extends StepName>(name: N): StepDefinition<N> {
  const schema = STEP_SCHEMAS[name];
  const shape: Record<string, z.ZodType> = schema.shape;
  const fields = Object.keys(shape) as (keyof StepSchemas[N]['shape'] & ClientField)[];
  return {
    name,
    path: `/${name}`,
    title: STEP_TITLES[name],
    fields,
    // A field is optional exactly when its schema accepts a missing value.
    requiredFields: fields.filter((field) => !shape[field]?.safeParse(undefined).success),
    schema,
  };
}

/** The 25 screens in wizard order. */
export const STEPS: readonly AnyStepDefinition[] = STEP_NAMES.map(
  (name) => defineStep(name) as AnyStepDefinition,
);

const STEP_BY_NAME = new Map<StepName, AnyStepDefinition>(STEPS.map((step) => [step.name, step]));

/** The definition of step `name`. */
export function getStep<N extends StepName>(name: N): StepDefinition<N> {
  return STEP_BY_NAME.get(name) as unknown as StepDefinition<N>;
}

/** The 0-based position of `name` in the wizard. */
export function stepIndex(name: StepName): number {
  return STEP_NAMES.indexOf(name);
}

/**
 * Where Next goes from step `saved`, given the BFF's next step (the first unanswered one): the screen right after
 * `saved` while that one is already answered, so a borrower who went Back to review moves forward one screen at
 * a time (issue 25), and the first unanswered screen once it is reached (or when `saved` was already past it).
 */
export function screenAfter(saved: StepName, firstUnanswered: StepName): StepName {
  const following = STEP_NAMES[stepIndex(saved) + 1];
  return following !== undefined && stepIndex(following) < stepIndex(firstUnanswered)
    ? following
    : firstUnanswered;
}

/** The step before `name` (where the back link goes), or `undefined` on the first step. */
export function previousStep(name: StepName): StepName | undefined {
  const index = stepIndex(name);
  return index > 0 ? STEP_NAMES[index - 1] : undefined;
}

/**
 * The progress bar's percentage on step `name` (docs/product-rules.md §wizard-order-and-progress): each of the 25
 * screens, /besttimecontact included, moves the bar by the same share, and submitting is the last share, so the
 * bar reaches 100 only once the application is sent (ssn shows 96.2). Two screens show the same value only when
 * they are the same step. At least 5, so the first screen never shows an empty bar; rounded to one decimal.
 */
export function progressFor(name: StepName): number {
  const position = STEP_NAMES.indexOf(name) + 1;
  return Math.max(5, Math.round((position * 1000) / (STEP_NAMES.length + 1)) / 10);
}

/** A lead's answers by client field name, as stored (any subset). */
export type ClientAnswers = Partial<Record<ClientField, unknown>>;

function isMissing(value: unknown): boolean {
  return value === undefined || value === null || value === '';
}

/**
 * Where a visitor continues (docs/product-rules.md §wizard-order-and-progress): the first step, in wizard order, with a required field missing
 * from `lead`; 'ssn' when every earlier step is answered.
 */
export function nextStepFor(lead: ClientAnswers): StepName {
  return firstMissingStep(lead) ?? 'ssn';
}

/** The first step, in wizard order, with an unanswered field; undefined when the lead is complete. */
export function firstMissingStep(lead: ClientAnswers): StepName | undefined {
  return STEPS.find((step) => step.requiredFields.some((field) => isMissing(lead[field])))?.name;
}

/**
 * The checks of step `step` that a payload alone cannot decide, run after the step's schema passed:
 * the age on `today`, the pay-date window from `today`, and a work phone differing from the personal phone.
 *
 * @param input the step's validated answers (client names).
 * @param lead the answers already stored for this lead (client names).
 * @param todayIso today in the business time zone, 'YYYY-MM-DD'; never read from the clock here.
 * @returns a message per failing client field; empty when the step may be saved.
 */
export function validateStepAgainstLead(
  step: StepName,
  input: ClientAnswers,
  lead: ClientAnswers,
  todayIso: string,
): Record<string, string> {
  switch (step) {
    case 'dob': {
      const message = dobProblem(String(input.dob), todayIso);
      return message === undefined ? {} : { dob: message };
    }
    case 'nextpaydate': {
      const message = payDateProblem(String(input.incomeNextDate1), todayIso);
      return message === undefined ? {} : { incomeNextDate1: message };
    }
    case 'workphone':
      return samePhone(input.employerPhone, lead.phone) ? { employerPhone: WORK_PHONE_SAME_AS_PERSONAL } : {};
    // Changing the personal phone after the work phone was saved must not make the two equal either.
    case 'cellphone':
      return samePhone(input.phone, lead.employerPhone) ? { phone: WORK_PHONE_SAME_AS_PERSONAL } : {};
    default:
      return {};
  }
}

function samePhone(a: unknown, b: unknown): boolean {
  if (typeof a !== 'string' || typeof b !== 'string') return false;
  const digits = normalizePhoneDigits(a);
  return digits.length > 0 && digits === normalizePhoneDigits(b);
}

/**
 * Why `dobIso` is refused on `todayIso`, if it is: it must be no older than the browser's year list and no later
 * than this year, and the 18th birthday must have passed (docs/product-rules.md §date-of-birth: the whole date counts, not the year alone).
 */
function dobProblem(dobIso: string, todayIso: string): string | undefined {
  if (!isIsoDate(dobIso)) return DOB_INVALID;
  const year = Number(dobIso.slice(0, 4));
  if (year > Number(todayIso.slice(0, 4)) || year < dobYearRange(todayIso).earliest) return DOB_INVALID;
  return isAtLeastAge(dobIso, todayIso, DOB_MINIMUM_AGE) ? undefined : DOB_UNDER_18;
}

/**
 * Why `dateIso` is refused as the next pay date on `todayIso`, if it is: outside the window, or inside it on a
 * weekend or Federal Reserve holiday (docs/product-rules.md §pay-dates gives each its own message).
 */
function payDateProblem(dateIso: string, todayIso: string): string | undefined {
  const { first, last } = payDateWindow(todayIso);
  if (!isIsoDate(dateIso) || dateIso < first || dateIso > last) return PAY_DATE_OUT_OF_WINDOW;
  return isBankBusinessDay(dateIso) ? undefined : PAY_DATE_NOT_BUSINESS_DAY;
}

/**
 * One of the date-of-birth selects: a whole number in range; '' or nothing is "not chosen". The checks abort so
 * the whole-date checks below never run on a month or year that failed here.
 */
function dobSelect(message: string, min: number, max: number) {
  const params = { error: message, abort: true };
  return z.coerce.number(params).int(params).min(min, params).max(max, params);
}

/**
 * The browser's three date-of-birth selects (month, then day, then year; values as numbers or the select's
 * strings), checked on `todayIso` ('YYYY-MM-DD', passed in because contracts never read the clock):
 * each select chosen, a day that exists in that month and year, a year from the 100-year list, and the
 * 18th birthday reached. Outputs the ISO date the dob step saves.
 */
export function createDobPartsSchema(todayIso: string) {
  const currentYear = Number(todayIso.slice(0, 4));
  return z
    .object({
      month: dobSelect(DOB_MONTH_REQUIRED, 1, 12),
      day: dobSelect(DOB_DAY_REQUIRED, 1, 31),
      year: dobSelect(DOB_YEAR_REQUIRED, dobYearRange(todayIso).earliest, currentYear),
    })
    .superRefine(({ year, month, day }, ctx) => {
      // The day list follows the month; choosing a shorter month afterwards can strand a day such as the 31st.
      if (day > daysInMonth(year, month)) {
        ctx.addIssue({ code: 'custom', path: ['day'], message: DOB_DAY_REQUIRED });
      } else if (!isAtLeastAge(formatIsoDate({ year, month, day }), todayIso, DOB_MINIMUM_AGE)) {
        ctx.addIssue({ code: 'custom', path: ['year'], message: DOB_UNDER_18 });
      }
    })
    .transform(({ year, month, day }) => formatIsoDate({ year, month, day }));
}
/** The selects' values as the browser holds them. */
export type DobParts = z.input<ReturnType<typeof createDobPartsSchema>>;
