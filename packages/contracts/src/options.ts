/**
 * The option lists of spec §9 (as settled by docs/product-rules.md §option-lists): what a person sees (`label`) and what is stored
 * (`value`), a zod schema per list carrying the spec §5 message for a missing or unknown choice, and the
 * default where the spec gives one. Lists are in the order the screens show them.
 */
import * as z from 'zod';
import {
  BANK_ACCOUNT_TYPE_REQUIRED,
  CHOOSE_AN_ANSWER,
  DIRECT_DEPOSIT_REQUIRED,
  ISSUING_STATE_REQUIRED,
  LOAN_AMOUNT_INVALID,
  LOAN_AMOUNT_REQUIRED,
  LOAN_REASON_INVALID,
  LOAN_REASON_REQUIRED,
  SELECT_ONE_OPTION,
  UNSUBSCRIBE_REASON_INVALID,
  UNSUBSCRIBE_REASON_REQUIRED,
  missingOr,
} from './messages.js';
import { daysInMonth } from './rules/calendar-date.js';
import {
  LOAN_AMOUNT_VALUES,
  LOAN_REASON_VALUES,
  valuesOf,
  type LoanAmount,
  type LoanReason,
  type Option,
} from './loan-options.js';

export * from './loan-options.js';

// Loan amount and loan reason: the lists are in loan-options.ts.

/** A loan amount in whole dollars, one of `LOAN_AMOUNTS`. */
export const LoanAmountSchema = z.literal(LOAN_AMOUNT_VALUES, {
  error: missingOr(LOAN_AMOUNT_REQUIRED, LOAN_AMOUNT_INVALID),
}) satisfies z.ZodType<LoanAmount>;
export const LoanReasonSchema = z.enum(LOAN_REASON_VALUES, {
  error: missingOr(LOAN_REASON_REQUIRED, LOAN_REASON_INVALID),
}) satisfies z.ZodType<LoanReason>;

// Time at residence.

/** docs/product-rules.md §option-lists: whole years, stored as months (years × 12); longest first, as the screen lists them. */
export const RESIDENCE_DURATIONS = [
  { value: 120, label: '10+ Years' },
  { value: 108, label: '9 Years' },
  { value: 96, label: '8 Years' },
  { value: 84, label: '7 Years' },
  { value: 72, label: '6 Years' },
  { value: 60, label: '5 Years' },
  { value: 48, label: '4 Years' },
  { value: 36, label: '3 Years' },
  { value: 24, label: '2 Years' },
  { value: 12, label: '1 Year' },
] as const satisfies readonly Option<number>[];
export const RESIDENCE_DURATION_VALUES = valuesOf(RESIDENCE_DURATIONS);
/** Months at the current address. */
export const ResidenceDurationSchema = z.literal(RESIDENCE_DURATION_VALUES, { error: SELECT_ONE_OPTION });
export type ResidenceDuration = z.infer<typeof ResidenceDurationSchema>;

// Home ownership.

export const HOME_OWNERSHIP = [
  { value: 'YES', label: 'Own' },
  { value: 'NO', label: 'Rent' },
] as const satisfies readonly Option<string>[];
export const HOME_OWNERSHIP_VALUES = valuesOf(HOME_OWNERSHIP);
/** `YES` = owns the home, `NO` = rents. */
export const HomeOwnershipSchema = z.enum(HOME_OWNERSHIP_VALUES, { error: CHOOSE_AN_ANSWER });
export type HomeOwnership = z.infer<typeof HomeOwnershipSchema>;

// Income source.

export const INCOME_SOURCES = [
  { value: 'EMPLOYMENT', label: 'Job income' },
  { value: 'SELF_EMPLOYMENT', label: 'Self-employed' },
  { value: 'MILITARY', label: 'Military' },
  { value: 'BENEFITS', label: 'Benefits' },
] as const satisfies readonly Option<string>[];
export const INCOME_SOURCE_VALUES = valuesOf(INCOME_SOURCES);
export const IncomeSourceSchema = z.enum(INCOME_SOURCE_VALUES, { error: CHOOSE_AN_ANSWER });
export type IncomeSource = z.infer<typeof IncomeSourceSchema>;

// Pay frequency.

export const PAY_FREQUENCIES = [
  { value: 'BIWEEKLY', label: 'Every 2 weeks' },
  { value: 'TWICEMONTHLY', label: 'Twice a month' },
  { value: 'MONTHLY', label: 'Monthly' },
  { value: 'WEEKLY', label: 'Weekly' },
] as const satisfies readonly Option<string>[];
export const PAY_FREQUENCY_VALUES = valuesOf(PAY_FREQUENCIES);
export const PayFrequencySchema = z.enum(PAY_FREQUENCY_VALUES, { error: CHOOSE_AN_ANSWER });
export type PayFrequency = z.infer<typeof PayFrequencySchema>;

// Direct deposit.

export const DIRECT_DEPOSIT_OPTIONS = [
  { value: 'YES', label: 'Yes (electronic deposit)' },
  { value: 'NO', label: 'No (paper check)' },
] as const satisfies readonly Option<string>[];
export const DIRECT_DEPOSIT_VALUES = valuesOf(DIRECT_DEPOSIT_OPTIONS);
export const DirectDepositSchema = z.enum(DIRECT_DEPOSIT_VALUES, { error: DIRECT_DEPOSIT_REQUIRED });
export type DirectDeposit = z.infer<typeof DirectDepositSchema>;
export const DEFAULT_DIRECT_DEPOSIT = 'YES' satisfies DirectDeposit;

// Bank account type.

export const BANK_ACCOUNT_TYPES = [
  { value: 'SAVING', label: 'Savings' },
  { value: 'CHECKING', label: 'Checking' },
] as const satisfies readonly Option<string>[];
export const BANK_ACCOUNT_TYPE_VALUES = valuesOf(BANK_ACCOUNT_TYPES);
export const BankAccountTypeSchema = z.enum(BANK_ACCOUNT_TYPE_VALUES, { error: BANK_ACCOUNT_TYPE_REQUIRED });
export type BankAccountType = z.infer<typeof BankAccountTypeSchema>;
/** Banks are more likely to fund checking accounts, so the screen starts there and questions a switch. */
export const DEFAULT_BANK_ACCOUNT_TYPE = 'CHECKING' satisfies BankAccountType;

// Time at bank.

export const BANK_TENURES = [
  { value: 3, label: '1-3 months' },
  { value: 6, label: '3-6 months' },
  { value: 12, label: '7-12 months' },
  { value: 24, label: '1-2 years' },
  { value: 30, label: 'More than 2 years' },
] as const satisfies readonly Option<number>[];
export const BANK_TENURE_VALUES = valuesOf(BANK_TENURES);
/** Months with the current bank, as the lender network buckets them (30 means "more than 2 years"). */
export const BankTenureSchema = z.literal(BANK_TENURE_VALUES, { error: CHOOSE_AN_ANSWER });
export type BankTenure = z.infer<typeof BankTenureSchema>;
export const DEFAULT_BANK_TENURE = 30 satisfies BankTenure;

// Credit score.

export const CREDIT_SCORE_BANDS = [
  { value: 'EXCELLENT', label: 'Excellent (720+)' },
  { value: 'GOOD', label: 'Good (680-719)' },
  { value: 'FAIR', label: 'Fair (640-679)' },
  { value: 'POOR', label: 'Poor (639 or less)' },
] as const satisfies readonly Option<string>[];
export const CREDIT_SCORE_VALUES = valuesOf(CREDIT_SCORE_BANDS);
export const CreditScoreSchema = z.enum(CREDIT_SCORE_VALUES, { error: SELECT_ONE_OPTION });
export type CreditScore = z.infer<typeof CreditScoreSchema>;

// Time at employer.

export const EMPLOYER_TENURES = [
  { value: 60, label: '5 years or more' },
  { value: 48, label: '3-4 years' },
  { value: 24, label: '1-2 years' },
  { value: 12, label: '3-12 months' },
  { value: 3, label: '3 months or less' },
] as const satisfies readonly Option<number>[];
export const EMPLOYER_TENURE_VALUES = valuesOf(EMPLOYER_TENURES);
/** Months with the current employer, bucketed. */
export const EmployerTenureSchema = z.literal(EMPLOYER_TENURE_VALUES, { error: CHOOSE_AN_ANSWER });
export type EmployerTenure = z.infer<typeof EmployerTenureSchema>;

// Gross monthly income.

export const MONTHLY_INCOME_BANDS = [
  { value: 10000, label: 'More than $5,500' },
  { value: 5500, label: '$4,501-$5,500' },
  { value: 4500, label: '$3,501-$4,500' },
  { value: 3500, label: '$2,501-$3,500' },
  { value: 2500, label: '$1,501-$2,500' },
  { value: 1500, label: 'Less than $1,500' },
] as const satisfies readonly Option<number>[];
export const MONTHLY_INCOME_VALUES = valuesOf(MONTHLY_INCOME_BANDS);
/** Gross monthly income in dollars: the band's upper bound (10000 stands for "more than $5,500"). */
export const MonthlyIncomeSchema = z.literal(MONTHLY_INCOME_VALUES, { error: CHOOSE_AN_ANSWER });
export type MonthlyIncome = z.infer<typeof MonthlyIncomeSchema>;

// Unsecured debt.

/** The spec gives only labels; the values are ours and must stay stable once leads are stored. */
export const UNSECURED_DEBT_BANDS = [
  { value: 'NONE', label: 'None' },
  { value: '1000_4999', label: '$1,000-$4,999' },
  { value: '5000_9999', label: '$5,000-$9,999' },
  { value: '10000_20000', label: '$10,000-$20,000' },
  { value: 'OVER_20000', label: 'Over $20,000' },
] as const satisfies readonly Option<string>[];
export const UNSECURED_DEBT_VALUES = valuesOf(UNSECURED_DEBT_BANDS);
export const UnsecuredDebtSchema = z.enum(UNSECURED_DEBT_VALUES, { error: SELECT_ONE_OPTION });
export type UnsecuredDebt = z.infer<typeof UnsecuredDebtSchema>;

// Best time to contact.

export const CONTACT_TIMES = [
  { value: 'ANYTIME', label: 'Anytime' },
  { value: 'MORNING', label: 'Morning' },
  { value: 'AFTERNOON', label: 'Afternoon' },
  { value: 'EVENING', label: 'Evening' },
] as const satisfies readonly Option<string>[];
export const CONTACT_TIME_VALUES = valuesOf(CONTACT_TIMES);
/** The spec gives this radio group no message; it gets the one of the other radio groups. */
export const ContactTimeSchema = z.enum(CONTACT_TIME_VALUES, { error: SELECT_ONE_OPTION });
export type ContactTime = z.infer<typeof ContactTimeSchema>;
export const DEFAULT_CONTACT_TIME = 'ANYTIME' satisfies ContactTime;

// Own car.

export const OWN_CAR_OPTIONS = [
  { value: 'YES', label: 'Yes' },
  { value: 'NO', label: 'No' },
] as const satisfies readonly Option<string>[];
export const OWN_CAR_VALUES = valuesOf(OWN_CAR_OPTIONS);
export const OwnCarSchema = z.enum(OWN_CAR_VALUES, { error: SELECT_ONE_OPTION });
export type OwnCar = z.infer<typeof OwnCarSchema>;

// Unsubscribe reason (also the do-not-sell request type).

/** The observed form sent the sentence itself; we store a stable code and show the sentence. */
export const UNSUBSCRIBE_REASONS = [
  { value: 'NO_LONGER_WISH_TO_RECEIVE', label: 'I no longer wish to receive the messages' },
  { value: 'DID_NOT_APPLY', label: 'I did not apply for a loan' },
  { value: 'SPAM', label: 'Messages are spam and should be reported' },
  { value: 'OTHER', label: 'Other' },
] as const satisfies readonly Option<string>[];
export const UNSUBSCRIBE_REASON_VALUES = valuesOf(UNSUBSCRIBE_REASONS);
export const UnsubscribeReasonSchema = z.enum(UNSUBSCRIBE_REASON_VALUES, {
  error: missingOr(UNSUBSCRIBE_REASON_REQUIRED, UNSUBSCRIBE_REASON_INVALID),
});
export type UnsubscribeReason = z.infer<typeof UnsubscribeReasonSchema>;

// US states.

/**
 * The 50 states and the District of Columbia by USPS code, alphabetical by name: docs/product-rules.md §option-lists adds DC to spec §9's
 * driver's-licence states (the District issues licences, and DC ZIP codes are accepted).
 */
export const US_STATES = [
  { value: 'AL', label: 'Alabama' },
  { value: 'AK', label: 'Alaska' },
  { value: 'AZ', label: 'Arizona' },
  { value: 'AR', label: 'Arkansas' },
  { value: 'CA', label: 'California' },
  { value: 'CO', label: 'Colorado' },
  { value: 'CT', label: 'Connecticut' },
  { value: 'DE', label: 'Delaware' },
  { value: 'DC', label: 'District of Columbia' },
  { value: 'FL', label: 'Florida' },
  { value: 'GA', label: 'Georgia' },
  { value: 'HI', label: 'Hawaii' },
  { value: 'ID', label: 'Idaho' },
  { value: 'IL', label: 'Illinois' },
  { value: 'IN', label: 'Indiana' },
  { value: 'IA', label: 'Iowa' },
  { value: 'KS', label: 'Kansas' },
  { value: 'KY', label: 'Kentucky' },
  { value: 'LA', label: 'Louisiana' },
  { value: 'ME', label: 'Maine' },
  { value: 'MD', label: 'Maryland' },
  { value: 'MA', label: 'Massachusetts' },
  { value: 'MI', label: 'Michigan' },
  { value: 'MN', label: 'Minnesota' },
  { value: 'MS', label: 'Mississippi' },
  { value: 'MO', label: 'Missouri' },
  { value: 'MT', label: 'Montana' },
  { value: 'NE', label: 'Nebraska' },
  { value: 'NV', label: 'Nevada' },
  { value: 'NH', label: 'New Hampshire' },
  { value: 'NJ', label: 'New Jersey' },
  { value: 'NM', label: 'New Mexico' },
  { value: 'NY', label: 'New York' },
  { value: 'NC', label: 'North Carolina' },
  { value: 'ND', label: 'North Dakota' },
  { value: 'OH', label: 'Ohio' },
  { value: 'OK', label: 'Oklahoma' },
  { value: 'OR', label: 'Oregon' },
  { value: 'PA', label: 'Pennsylvania' },
  { value: 'RI', label: 'Rhode Island' },
  { value: 'SC', label: 'South Carolina' },
  { value: 'SD', label: 'South Dakota' },
  { value: 'TN', label: 'Tennessee' },
  { value: 'TX', label: 'Texas' },
  { value: 'UT', label: 'Utah' },
  { value: 'VT', label: 'Vermont' },
  { value: 'VA', label: 'Virginia' },
  { value: 'WA', label: 'Washington' },
  { value: 'WV', label: 'West Virginia' },
  { value: 'WI', label: 'Wisconsin' },
  { value: 'WY', label: 'Wyoming' },
] as const satisfies readonly Option<string>[];
export const US_STATE_CODES = valuesOf(US_STATES);
export const UsStateCodeSchema = z.enum(US_STATE_CODES, { error: ISSUING_STATE_REQUIRED });
export type UsStateCode = z.infer<typeof UsStateCodeSchema>;

/**
 * The state code for free text naming a state by code or by name, any case ('ca', 'California'),
 * or `undefined` when it names none; the issuing-state field is a free-text autocomplete.
 */
export function toUsStateCode(text: string): UsStateCode | undefined {
  const wanted = text.trim().toUpperCase();
  return US_STATES.find((state) => state.value === wanted || state.label.toUpperCase() === wanted)?.value;
}

// Email domains.

/** docs/product-rules.md §option-lists: offered once the typed email contains '@'. */
export const EMAIL_DOMAIN_SUGGESTIONS = [
  'gmail.com',
  'yahoo.com',
  'hotmail.com',
  'aol.com',
  'outlook.com',
  'icloud.com',
  'msn.com',
] as const;

// Date of birth selects.

export const DOB_MONTHS = [
  { value: 1, label: 'January' },
  { value: 2, label: 'February' },
  { value: 3, label: 'March' },
  { value: 4, label: 'April' },
  { value: 5, label: 'May' },
  { value: 6, label: 'June' },
  { value: 7, label: 'July' },
  { value: 8, label: 'August' },
  { value: 9, label: 'September' },
  { value: 10, label: 'October' },
  { value: 11, label: 'November' },
  { value: 12, label: 'December' },
] as const satisfies readonly Option<number>[];

/** How many years the date-of-birth year list offers (spec §9). */
export const DOB_YEAR_COUNT = 100;
/** The youngest borrower the funnel accepts. */
export const DOB_MINIMUM_AGE = 18;

/**
 * docs/product-rules.md §date-of-birth: the year list starts at the latest year that can make someone 18 on `todayIso` ('YYYY-MM-DD')
 * and counts down 100 years.
 */
export function dobYearRange(todayIso: string): { latest: number; earliest: number } {
  const latest = Number(todayIso.slice(0, 4)) - DOB_MINIMUM_AGE;
  return { latest, earliest: latest - DOB_YEAR_COUNT + 1 };
}

/** The date-of-birth year list, newest first (see `dobYearRange`). */
export function dobYearOptions(todayIso: string): Option<number>[] {
  const { latest } = dobYearRange(todayIso);
  return Array.from({ length: DOB_YEAR_COUNT }, (_, i) => {
    const year = latest - i;
    return { value: year, label: String(year) };
  });
}

/** The day list for a month; without a year February offers 29 so a leap-day birthday can be chosen first. */
export function dobDayOptions(month: number, year?: number): Option<number>[] {
  // 2000 is a leap year.
  const count = daysInMonth(year ?? 2000, month);
  return Array.from({ length: count }, (_, i) => ({ value: i + 1, label: String(i + 1) }));
}
