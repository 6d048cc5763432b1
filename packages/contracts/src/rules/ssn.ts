const SSN_SHAPE = /^(\d{3})-?(\d{2})-?(\d{4})$/;

/**
 * True for an SSN typed as '###-##-####' or as nine digits, whatever the number. Mixed forms such as
 * '123-456789' are typos, not one of the two accepted shapes.
 */
export function hasSsnFormat(value: string): boolean {
  return SSN_SHAPE.test(value) && (value.length === 9 || value.length === 11);
}

/**
 * True for a Social Security number the SSA can have issued, typed as '###-##-####' or as nine digits.
 * Never issued: area 000, 666 or 900–999 (900–999 are ITINs), group 00, serial 0000.
 */
export function isValidSsn(value: string): boolean {
  const match = SSN_SHAPE.exec(value);
  if (match === null || !hasSsnFormat(value)) return false;
  const area = Number(match[1]);
  const group = Number(match[2]);
  const serial = Number(match[3]);
  return area !== 0 && area !== 666 && area < 900 && group !== 0 && serial !== 0;
}

/** The digits of an SSN: '123-45-6789' → '123456789' (what is stored and sent, spec §5). */
export function ssnDigits(value: string): string {
  return value.replace(/\D/g, '');
}

/**
 * Formats SSN digits as '###-##-####'. Partial input is formatted as far as it goes ('12345' → '123-45'), so the
 * same function serves the input mask; anything past nine digits is dropped.
 */
export function formatSsn(digits: string): string {
  const d = ssnDigits(digits).slice(0, 9);
  if (d.length <= 3) return d;
  if (d.length <= 5) return `${d.slice(0, 3)}-${d.slice(3)}`;
  return `${d.slice(0, 3)}-${d.slice(3, 5)}-${d.slice(5)}`;
}
