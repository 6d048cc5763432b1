import { isValidPhoneNumber } from 'libphonenumber-js/min';

/** NANP shape: area code NXX and exchange NXX, where N is 2–9. */
const NANP_TEN_DIGITS = /^[2-9]\d{2}[2-9]\d{6}$/;

/**
 * The digits of a typed or autofilled phone number: '(212)-555-1234' → '2125551234'. A leading country code 1
 * on an 11-digit number ('+1 212 555 1234', as browser autofill writes it) is dropped, which is unambiguous
 * because a NANP area code never starts with 1.
 */
export function normalizePhoneDigits(input: string): string {
  const digits = input.replace(/\D/g, '');
  return digits.length === 11 && digits.startsWith('1') ? digits.slice(1) : digits;
}

/**
 * True for a 10-digit North American Numbering Plan number (digits only): area code and exchange may not start
 * with 0 or 1, and libphonenumber's metadata must know the area code (it rejects unassigned ones such as 370 or
 * 999, and N11 service codes). Numbers of other NANP countries (Canada, Puerto Rico, …) are valid too.
 *
 * Uses the `min` metadata on purpose: this runs in the browser, and for NANP it validates area codes the same
 * way the much larger `max` metadata does (`max` only adds per-type patterns we do not need).
 */
export function isValidUsPhone(digits10: string): boolean {
  return NANP_TEN_DIGITS.test(digits10) && isValidPhoneNumber(digits10, 'US');
}
