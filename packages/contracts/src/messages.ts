/**
 * Every message a person reads when a field is rejected: spec §5, with the wording fixes of docs/product-rules.md §messages.
 * Schemas, the BFF and the browser import these constants, so one sentence is never typed twice.
 *
 * Several fields share a sentence (the spec assigns 'Please choose an answer' to five selections); those are
 * exported once under the sentence's meaning and assigned per field in `steps.ts`.
 */

// Session and lookups (spec §8, §5 'Zip lookup fails').

/** A free-text answer holding control, bidi-override or broken characters (issue 12). */
export const UNSUPPORTED_CHARACTERS = 'Please remove unsupported characters.';
/** A request without a live lead: the screen says so in the page, with a Start over button (docs/product-rules.md §returning-visitors-and-sessions). */
export const SESSION_EXPIRED = 'This session is invalid or expired. Please start over!';
/** A step saved before the questions ahead of it were answered (an API client skipping screens, issue 33). */
export const STEP_OUT_OF_ORDER = 'Please answer the earlier questions first.';
/**
 * The ZIP lookup found no city. The observed landing field said only 'Invalid'; one sentence serves the landing
 * screen and the address step alike.
 */
export const ZIP_CODE_NOT_FOUND = 'Invalid zip code!';

// Shared selection messages (spec §5 assigns them per field; see steps.ts).

/** Own home, time at employer, income source, pay frequency, monthly income, pay date, time at bank. */
export const CHOOSE_AN_ANSWER = 'Please choose an answer';
/** Residence duration, credit score, unsecured debt, own car, best time to contact. */
export const SELECT_ONE_OPTION = 'Please select one option.';
/** Direct deposit: the spec gives this screen its own exclamation mark. */
export const DIRECT_DEPOSIT_REQUIRED = 'Please choose an answer!';

// Landing.

export const LOAN_AMOUNT_REQUIRED = 'Loan amount is required!';
/** An amount sent but not offered (99, 150, 5001): the range of the list, in the spec's style (issue 23). */
export const LOAN_AMOUNT_INVALID = 'Please select a loan amount from $100 to $5,000';
export const LOAN_REASON_REQUIRED = 'Loan reason is required!';
/** A reason sent but not on the list ('VACATION'). */
export const LOAN_REASON_INVALID = 'Please select a loan reason from the list';
export const ZIP_CODE_REQUIRED = 'Zip code is required!';
export const ZIP_CODE_LENGTH = 'Zip code must be 5 characters long!';
/** A ZIP code sent as a number: its leading zeros would be lost, so it must come as text. */
export const ZIP_CODE_NOT_TEXT = 'Zip code must be 5 digits sent as text, like "01234"!';

/**
 * A zod error message that tells a missing value (absent, null or blank) from one present but wrong: the
 * "required" message is for the first only (issue 23).
 */
export function missingOr(required: string, invalid: string) {
  return (issue: { input?: unknown }): string =>
    issue.input === undefined || issue.input === null || issue.input === '' ? required : invalid;
}

// Name and contact.

/** docs/product-rules.md §messages: the observed 'FirstName is required!' gets the obvious wording. */
export const FIRST_NAME_REQUIRED = 'First name is required!';
/** The observed 'lastName is required!' leaked a variable name, like the first-name message docs/product-rules.md §messages fixes. */
export const LAST_NAME_REQUIRED = 'Last name is required!';
export const EMAIL_REQUIRED = 'Email is required!';
export const EMAIL_INVALID = 'Invalid email address';
export const PHONE_REQUIRED = 'Phone number is required!';
export const PHONE_INVALID = 'The phone number is not correct!';

// Date of birth.

export const DOB_MONTH_REQUIRED = 'Month is required!';
export const DOB_DAY_REQUIRED = 'Day is required!';
export const DOB_YEAR_REQUIRED = 'Year is required!';
export const DOB_UNDER_18 = 'You are not yet 18 years old';
/** The API's single `dob` field (the browser's three selects report per select instead). */
export const DOB_REQUIRED = 'Date of birth is required!';
/** A `dob` that is no calendar date, lies in the future or is older than the 100-year list. */
export const DOB_INVALID = 'Please enter a valid date of birth';

// Address.

export const STREET_ADDRESS_REQUIRED = 'Street Address is required!';
export const STREET_ADDRESS_SPECIAL_CHARACTERS = 'The address can not contain special characters!';

// Employment and income.

/** docs/product-rules.md §messages: the observed 'FirstName is required!' on this field was a mistake. */
export const EMPLOYER_NAME_REQUIRED = 'Employer name is required!';
export const JOB_TITLE_REQUIRED = 'Job title is required!';
export const WORK_PHONE_LENGTH = 'Phone number must be exactly 10 digits';
export const WORK_PHONE_SAME_AS_PERSONAL =
  'Company phone number must not be the same as personal phone number!';
/** docs/product-rules.md §pay-dates replaces the observed 'Please select a date after 30 days from now!', which said the opposite. */
export const PAY_DATE_OUT_OF_WINDOW = 'Please select a date within the next 30 days';
/** docs/product-rules.md §pay-dates: a date inside the window on a weekend or Federal Reserve holiday, when no pay arrives. */
export const PAY_DATE_NOT_BUSINESS_DAY = 'Please select a business day';

// Bank.

export const ROUTING_NUMBER_REQUIRED = 'Routing Number is required!';
export const ROUTING_NUMBER_LENGTH = 'Routing Number must be a 9-digit number.';
export const ROUTING_NUMBER_INVALID = 'Invalid Routing Number!';
export const BANK_NAME_REQUIRED = 'Bank Name is required!';
/** The spec offers this or 'Please select one option.'; the field name reads better to an API integrator too. */
export const BANK_ACCOUNT_TYPE_REQUIRED = 'Bank Account Type is required!';
export const BANK_ACCOUNT_REQUIRED = 'Bank Account is required!';
export const BANK_ACCOUNT_TOO_SHORT = 'Please enter at least 4 digits';
/** docs/product-rules.md §bank-details: 17 digits is the NACHA limit (the spec's input allowed 24 and its placeholder said 30). */
export const BANK_ACCOUNT_TOO_LONG = 'Please enter at most 17 digits';
export const BANK_ACCOUNT_DIGITS_ONLY = 'Please enter digits only';

// Identity.

/** The observed 'LicenseID is required!' leaked a variable name; worded like the fixed too-long message. */
export const LICENSE_ID_REQUIRED = 'License ID is required!';
export const LICENSE_ID_TOO_SHORT = 'Please enter at least 2 characters';
/** docs/product-rules.md §messages: the observed 'LicenseID must be 10 characters long' contradicted the 25-character limit. */
export const LICENSE_ID_TOO_LONG = 'License ID must be at most 25 characters';
/** docs/product-rules.md §messages: the observed 'FirstName is required!' on this field was a mistake. */
export const ISSUING_STATE_REQUIRED = 'Issuing state is required!';
/** Free text that names no US state (the browser offers an autocomplete over the 50 states). */
export const ISSUING_STATE_INVALID = 'Please choose a state from the list';
export const SSN_REQUIRED = 'Social Security Number is required!';
/** A wrong format only (docs/product-rules.md §messages). */
export const SSN_INVALID = 'Invalid social security number format xxx-xx-xxxx';
/** The right format, but a number the SSA never issues (area 000, 666, 900–999; group 00; serial 0000). */
export const SSN_NOT_ISSUABLE = 'Please enter a valid Social Security Number';

// Privacy forms (unsubscribe, do-not-sell). Email and phone reuse the wizard's EMAIL_* and PHONE_* messages.

/** Both privacy forms: a phone shorter than 10 digits. */
export const PRIVACY_PHONE_LENGTH = 'Phone number must be 10 characters long';
/** The observed 'Unsubscribe is required!' named the form field, not the thing asked for. */
export const UNSUBSCRIBE_REASON_REQUIRED = 'Unsubscribe reason is required!';
/** A reason sent but not on the list. */
export const UNSUBSCRIBE_REASON_INVALID = 'Please select an unsubscribe reason from the list';
/** Spec §5, kept exactly (docs/product-rules.md §messages): one message for an empty and a malformed unsubscribe email. */
export const UNSUBSCRIBE_EMAIL_INVALID = 'invalid email address';
export const STATE_RESIDENCY_REQUIRED = 'Please select an answer!';
export const PRIVACY_FIRST_NAME_REQUIRED = 'First Name is required!';
export const PRIVACY_LAST_NAME_REQUIRED = 'Last Name is required!';
export const PRIVACY_ZIP_CODE_LENGTH = 'Zip code must be 5 characters long';
/** The observed 'State Type is required!' named a field that does not exist. */
export const PRIVACY_STATE_REQUIRED = 'State is required!';
/** Spec §5, kept exactly (docs/product-rules.md §messages): one message for an empty and a short do-not-sell address. */
export const PRIVACY_ADDRESS_LENGTH = 'Address must be 5 characters long';
export const CITY_REQUIRED = 'City is required!';

/**
 * Free-text fields carry a length cap the spec does not state (it bounds what a client can store in a lead);
 * `label` is the field as a person names it, e.g. `maxLengthMessage('First name', 50)`.
 */
export function maxLengthMessage(label: string, max: number): string {
  return `${label} must be at most ${max} characters`;
}
