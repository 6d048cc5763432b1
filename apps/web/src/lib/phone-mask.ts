import { normalizePhoneDigits } from '@funnel/contracts/rules/phone';

const PHONE_DIGITS = 10;

/**
 * Formats what is typed as the mask (999) 999-9999, the way US numbers are written (docs/decisions-addendum.md),
 * as far as the digits go: '212555' → '(212) 555'. Autofill's
 * '+1 212 555 1234' loses its country code. Only punctuation the digits have reached is shown, so Backspace
 * always removes a digit.
 */
export function formatPhoneMask(text: string): string {
  const digits = normalizePhoneDigits(text).slice(0, PHONE_DIGITS);
  if (digits.length === 0) return '';
  if (digits.length <= 3) return `(${digits}`;
  if (digits.length <= 6) return `(${digits.slice(0, 3)}) ${digits.slice(3)}`;
  return `(${digits.slice(0, 3)}) ${digits.slice(3, 6)}-${digits.slice(6)}`;
}
