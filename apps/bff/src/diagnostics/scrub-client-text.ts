/**
 * Blanks what a visitor may have typed from a browser error report before it is logged (issue 23): email
 * addresses, dates in any common spelling (a birth date), and any run of 7 or more digits however it is
 * separated (an SSN, a phone, a routing or account number). It goes by shape, not by a list of known spellings:
 * a separator is any run of up to 3 characters that are neither letters, digits nor line breaks (dashes of every
 * kind, dots, slashes, spaces of every width, invisible joiners), and a digit is any decimal digit (fullwidth
 * and other scripts included). Ordinary diagnostics survive: status codes, durations, versions, times of day,
 * line and column numbers.
 */
export function scrubClientText(text: string): string {
  return text
    .normalize('NFKC')
    .replace(EMAIL, '[email]')
    .replace(NAMED_MONTH_DATE, '[date]')
    .replace(NUMERIC_DATE, (match, ...groups: unknown[]) => (isNumericDate(groups) ? '[date]' : match))
    .replace(DIGIT_RUN, (match) => (countDigits(match) >= MIN_SCRUBBED_DIGITS ? '[number]' : match));
}

/** Fewer digits than this in one run are diagnostics (times, sizes, line numbers); more may be a person's. */
const MIN_SCRUBBED_DIGITS = 7;

/** An address whose last label has a letter (`lodash@4.17.21` is a package, not an address). */
const EMAIL = /[\p{L}\p{N}._%+-]+@[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)*\.\p{L}[\p{L}\p{N}-]*/gu;

/**
 * Up to 3 characters between two digits that are neither letters, digits, line breaks nor colons (a time of day
 * such as `12:44:32.123` is a diagnostic, not a number a person typed).
 */
const GAP = String.raw`[^\p{L}\p{N}\r\n:]{1,3}`;
/** A run of digits and gaps, with the `+` or `(` a phone number may open with. */
const DIGIT_RUN = new RegExp(String.raw`[+(]?\p{Nd}(?:(?:${GAP})?\p{Nd})*`, 'gu');

const MONTH = String.raw`(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?`;
const DAY = String.raw`(?:0?[1-9]|[12]\d|3[01])(?:st|nd|rd|th)?`;
const YEAR = String.raw`(?:\d{4}|'?\d{2})`;
/** Any dash: the punctuation dashes and the minus sign, which looks like one. */
const DASH = String.raw`\p{Pd}\u2212`;
/** A separator inside a written date: spaces, commas, dashes, slashes, dots (any width or kind). */
const DATE_GAP = String.raw`[\s,./${DASH}]{1,3}`;
/** `Oct 23, 1967`, `October 23rd 1967`, `23 Oct 1967`, `23-Oct-67`, `1967 Oct 23`. */
const NAMED_MONTH_DATE = new RegExp(
  String.raw`(?<![\p{L}\p{N}])(?:${MONTH}${DATE_GAP}${DAY}${DATE_GAP}${YEAR}|${DAY}${DATE_GAP}${MONTH}${DATE_GAP}${YEAR}|\d{4}${DATE_GAP}${MONTH}${DATE_GAP}${DAY})(?![\p{L}\p{N}])`,
  'giu',
);

/** A separator inside a numeric date: one dash (any kind), slash, dot or space, possibly spaced. */
const NUMERIC_GAP = String.raw`\s?[/.${DASH}\s]\s?`;
/**
 * `10/23/1967`, `10/23/67`, `23.10.1967`, `1967/10/23`, `1967-10-23`: three numbers, the year first or last.
 * Not inside a longer dotted or digit run, so version numbers (`v1.2.3`, `120.0.6099.109`) are left alone.
 */
const NUMERIC_DATE = new RegExp(
  String.raw`(?<![\p{L}\p{N}.@])(?:(\d{4})${NUMERIC_GAP}(\d{1,2})${NUMERIC_GAP}(\d{1,2})|(\d{1,2})${NUMERIC_GAP}(\d{1,2})${NUMERIC_GAP}(\d{4}|\d{2}))(?![\p{N}]|\.\p{N})`,
  'gu',
);

/** Whether the numbers a numeric-date match captured can be a calendar date (either day-month order). */
function isNumericDate(groups: unknown[]): boolean {
  const [yearFirst, a1, b1, a2, b2, yearLast] = groups
    .slice(0, 6)
    .map((group) => (typeof group === 'string' ? group : ''));
  const year = yearFirst || yearLast || '';
  const inRange = year.length !== 4 || (Number(year) >= 1900 && Number(year) <= 2099);
  return inRange && (yearFirst ? isDayAndMonth(a1, b1) : isDayAndMonth(a2, b2));
}

function isDayAndMonth(first = '', second = ''): boolean {
  const [a, b] = [Number(first), Number(second)];
  const month = (n: number) => n >= 1 && n <= 12;
  const day = (n: number) => n >= 1 && n <= 31;
  return (month(a) && day(b)) || (day(a) && month(b));
}

function countDigits(text: string): number {
  return text.replace(/\P{Nd}/gu, '').length;
}
