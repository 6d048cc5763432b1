import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../src/logger.js';
import { logSink } from './log-sink.js';
import { startTestApp, type TestApp } from './test-app.js';

/** Every way a separator between digits is typed or pasted: dashes of every kind, dots, slashes, spaces. */
const SEPARATORS = [
  '',
  '-',
  '.',
  ' ',
  '/',
  '_',
  '\u2010', // hyphen
  '\u2011', // non-breaking hyphen
  '\u2012', // figure dash
  '\u2013', // en dash
  '\u2014', // em dash
  '\u2212', // minus sign
  '\uFE63', // small hyphen-minus
  '\uFF0D', // fullwidth hyphen-minus
  '\u00B7', // middle dot
  '\uFF0E', // fullwidth full stop
  '\u00A0', // no-break space
  '\u2009', // thin space
  '\u202F', // narrow no-break space
  '\u3000', // ideographic space
  '\u200B', // zero-width space
  ' - ',
  ' \u2013 ',
  '. ',
];

/** `digits` cut into groups of `sizes` and joined with `separator`. */
function spell(digits: string, sizes: number[], separator: string): string {
  const groups: string[] = [];
  let at = 0;
  for (const size of sizes) {
    groups.push(digits.slice(at, at + size));
    at += size;
  }
  return groups.join(separator);
}

const FULLWIDTH = (text: string) => text.replace(/\d/g, (d) => String.fromCharCode(0xff10 + Number(d)));

/** SSNs, phone, routing and account numbers in every grouping and separator. */
const NUMBERS = [
  ...SEPARATORS.flatMap((separator) => [
    spell('219099999', [3, 2, 4], separator),
    spell('219099999', [3, 3, 3], separator),
    spell('5125550143', [3, 3, 4], separator),
    spell('114994031', [4, 4, 1], separator),
    spell('004512398765', [4, 4, 4], separator),
  ]),
  '(512) 555-0143',
  '+1 512 555 0143',
  FULLWIDTH('219-09-9999'),
  FULLWIDTH('219099999'),
  '2 1 9 0 9 9 9 9 9',
];

const MONTHS_SHORT = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const MONTHS_LONG = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

/** One birth date in every common spelling: numeric in each order and separator, and with the month named. */
function dateSpellings(year: number, month: number, day: number): string[] {
  const pad = (n: number) => String(n).padStart(2, '0');
  const yy = String(year).slice(2);
  const numeric = ['/', '-', '.', ' ', '\u2013', '\u2010', '\u2212', ' / ', '. '].flatMap((s) => [
    `${pad(month)}${s}${pad(day)}${s}${year}`,
    `${month}${s}${day}${s}${year}`,
    `${pad(month)}${s}${pad(day)}${s}${yy}`,
    `${month}${s}${day}${s}${yy}`,
    `${pad(day)}${s}${pad(month)}${s}${year}`,
    `${day}${s}${month}${s}${year}`,
    `${pad(day)}${s}${pad(month)}${s}${yy}`,
    `${year}${s}${pad(month)}${s}${pad(day)}`,
    `${year}${s}${month}${s}${day}`,
  ]);
  const short = MONTHS_SHORT[month - 1]!;
  const long = MONTHS_LONG[month - 1]!;
  const ordinal = `${day}${day === 1 || day === 21 || day === 31 ? 'st' : day === 2 || day === 22 ? 'nd' : day === 3 || day === 23 ? 'rd' : 'th'}`;
  const named = [short, `${short}.`, long, short.toUpperCase(), long.toLowerCase()].flatMap((m) => [
    `${m} ${day}, ${year}`,
    `${m} ${day} ${year}`,
    `${m} ${pad(day)}, ${year}`,
    `${m} ${ordinal}, ${year}`,
    `${m} ${day}, '${yy}`,
    `${day} ${m} ${year}`,
    `${day} ${m}, ${year}`,
    `${day}-${m}-${year}`,
    `${pad(day)}-${m}-${yy}`,
    `${year} ${m} ${day}`,
  ]);
  return [...numeric, ...named];
}

const DATES = [...dateSpellings(1967, 10, 23), ...dateSpellings(1988, 4, 9)];

/** Ordinary diagnostics that must reach the log as sent. */
const ORDINARY = [
  'HTTP 503 after 2000 ms',
  'Request failed with status code 429',
  "TypeError: Cannot read properties of undefined (reading 'nextStep') at index-3f2a9c.js:1:23456",
  'retry 3 of 8 in 1500 ms',
  'event stream closed at 12:44:32.123',
  'step 7 of 24 (29%)',
  'web v1.2.3, lodash@4.17.21',
  'ZIP 10001 not found',
  'amount $5,000 out of range',
  'Loading chunk 404 failed',
  'heap 48.5 MB, 1234 nodes',
];

describe('browser error reports', () => {
  let t: TestApp;
  const log = logSink();

  beforeAll(async () => {
    t = await startTestApp({ logger: createLogger('info', log.sink), env: { RATE_LIMIT_ENABLED: 'false' } });
  });
  afterAll(async () => {
    await t.close();
  });

  /** Sends `texts` as few reports as the size limit allows; answers what the log says of each, in order. */
  async function reported(texts: string[]): Promise<string[]> {
    const batches: string[][] = [[]];
    for (const text of texts) {
      const batch = batches.at(-1)!;
      if ([...batch, text].join('\n').length > 1900) batches.push([text]);
      else batch.push(text);
    }
    const logged: string[] = [];
    for (const batch of batches) {
      log.text.length = 0;
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/v1/logs',
        payload: { pretext: 'save failed', text: batch.join('\n') },
      });
      expect(response.statusCode).toBe(204);
      const report = log.entries().find((entry) => entry.msg === 'client report');
      logged.push(...String((report?.clientLog as { text?: string } | undefined)?.text).split('\n'));
    }
    return logged;
  }

  it(`blank ${NUMBERS.length} spellings of SSN, phone, routing and account numbers`, async () => {
    const sent = NUMBERS.map((number) => `save failed for ${number} on step ssn`);
    const logged = await reported(sent);
    expect(logged).toHaveLength(sent.length);
    const missed = NUMBERS.filter((_, i) => logged[i] !== 'save failed for [number] on step ssn');
    expect(missed).toEqual([]);
  });

  it(`blank ${DATES.length} spellings of a birth date`, async () => {
    const sent = DATES.map((date) => `dob ${date} refused`);
    const logged = await reported(sent);
    expect(logged).toHaveLength(sent.length);
    const missed = DATES.filter((_, i) => logged[i] !== 'dob [date] refused');
    expect(missed).toEqual([]);
  });

  it('blank email addresses, and keep ordinary diagnostics as sent', async () => {
    const logged = await reported([...ORDINARY, 'no answer for maria.garcia+loans@example.co.uk']);
    expect(logged).toEqual([...ORDINARY, 'no answer for [email]']);
  });
});
