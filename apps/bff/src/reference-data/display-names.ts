/**
 * Turns the upper-case names of the Census and the SEC into the form a visitor would type. Both sources drop or
 * never had the original casing, so this is a best guess: "OBRIEN" becomes "Obrien", not "O'Brien".
 */

const MC_PREFIX = /^MC([A-Z]{2,})$/;

/**
 * A Census surname ("SMITH", "MCDONALD") in title case, with the Scottish/Irish "Mc" prefix restored
 * ("McDonald"). Names that already contain lower case are returned as they are.
 */
export function displaySurname(name: string): string {
  const trimmed = name.trim();
  if (/[a-z]/.test(trimmed)) return trimmed;
  return trimmed.replace(/[A-Z]+/g, capitalizeWord);
}

// EDGAR appends the state or country of incorporation, or an ADR marker: "BANK OF AMERICA CORP /DE/",
// "COSTCO WHOLESALE CORP /NEW", "Siemens Energy AG/ADR", "TOYOTA MOTOR CORP/".
const EDGAR_SUFFIX =
  /\s*[/\\]\s*(?:ADR|NEW|DEL|CAN|Canada|UK|Cayman(?: Islands)?|Marshall Islands|[A-Z]{2,3})?\s*[/\\]?\s*$/;
// "SA/NV" is a Belgian legal form, not Nevada ("A/S" never matches the suffix pattern).
const SA_NV = /(?:^|[\s,])S\.?A\.?\/N\.?V\.?$/i;

const SUFFIX_WORDS: Readonly<Record<string, string>> = {
  INC: 'Inc',
  CORP: 'Corp',
  CO: 'Co',
  LTD: 'Ltd',
  GMBH: 'GmbH',
  KGAA: 'KGaA',
};
const MIXED_CASE_SUFFIXES = /^(?:Inc|Corp|Co|Ltd|plc|Limited|Corporation|Company)\.?,?$/;
const UPPER_WORDS = new Set([
  'AB',
  'ADR',
  'AG',
  'AS',
  'ASA',
  'BDC',
  'BV',
  'ETF',
  'II',
  'III',
  'IV',
  'LLC',
  'LLP',
  'LP',
  'NA',
  'NV',
  'PLC',
  'REIT',
  'SA',
  'SE',
  'SPA',
  'UK',
  'US',
  'USA',
  'VI',
  'VII',
  'VIII',
]);
const LOWER_WORDS = new Set([
  'AN',
  'AND',
  'AT',
  'BY',
  'DE',
  'DEL',
  'DES',
  'DU',
  'FOR',
  'IN',
  'OF',
  'ON',
  'THE',
  'TO',
]);

/**
 * An SEC company name as a visitor would write it: EDGAR's incorporation suffixes ("/DE/", "/ADR") removed,
 * and words in capitals title-cased: "BANK OF AMERICA CORP /DE/" → "Bank of America Corp",
 * "JPMORGAN CHASE & CO" → "Jpmorgan Chase & Co".
 *
 * In a name written wholly in capitals, legal forms (LLC, PLC, NV, AG …) stay in capitals, "Inc", "Corp", "Co",
 * "Ltd" are title-cased, short linking words are lowercased ("of", "and"), and words that look like acronyms —
 * one or two letters, or no vowel (CSX, PNC, HSBC) — stay as they are; "AT&T" and "S&P" therefore survive.
 * A name that has lower case beyond such a suffix ("Apple Inc.", "GE Vernova Inc.") is mixed case: there only
 * capital words longer than four letters, and the suffixes above, are title-cased, since short ones are
 * deliberate (RTX, SAP, GE).
 */
export function displayCompanyName(name: string): string {
  const stripped = stripEdgarSuffixes(name.trim().replace(/\s+/g, ' '));
  const tokens = stripped.split(' ');
  // "ELI LILLY & Co" and "CVS HEALTH Corp" are capitals with a title-cased suffix; treat them as all capitals.
  const allCaps = tokens.every((token) => !/[a-z]/.test(token) || MIXED_CASE_SUFFIXES.test(token));
  return tokens
    .map((token, position) => (/[a-z]/.test(token) ? token : casedToken(token, position === 0, allCaps)))
    .join(' ');
}

function stripEdgarSuffixes(name: string): string {
  let result = name;
  for (;;) {
    const match = EDGAR_SUFFIX.exec(result);
    if (!match || match.index === 0) return result;
    if (SA_NV.test(result)) return result;
    result = result.slice(0, match.index).replace(/[\s,]+$/, '');
  }
}

function casedToken(token: string, first: boolean, allCaps: boolean): string {
  const bare = token.replace(/[.,()]/g, '');
  const suffix = SUFFIX_WORDS[bare];
  if (suffix !== undefined) return token.replace(bare, suffix);
  if (!allCaps) return token.replace(/[A-Z]{5,}/g, capitalizeWord);
  if (UPPER_WORDS.has(bare)) return token;
  if (LOWER_WORDS.has(bare) && !first) return token.toLowerCase();
  return token.replace(/[A-Z]+/g, (run) => (looksLikeAcronym(run) ? run : capitalizeWord(run)));
}

function looksLikeAcronym(word: string): boolean {
  return word.length <= 2 || !/[AEIOU]/.test(word);
}

function capitalizeWord(word: string): string {
  const mc = MC_PREFIX.exec(word);
  if (mc?.[1]) return `Mc${capitalizeWord(mc[1])}`;
  return word.charAt(0) + word.slice(1).toLowerCase();
}

/**
 * Bank abbreviations and initialisms that stay in capitals in a FedACH name (issue 25: "Cooperative Employees'
 * CU", not "Cu"). Each is a word the directory uses as an abbreviation, counted in the 2018 directory; a short
 * word that is also an English word or a place ("LA", "IN", "ONE") is not here.
 */
export const BANK_ACRONYMS: ReadonlySet<string> = new Set([
  // Legal forms and charters.
  'NA',
  'FSB',
  'SSB',
  'SB',
  'BK',
  'TBK',
  'CU',
  'FCU',
  'EFCU',
  'ECU',
  'S&L',
  'DBA',
  'FRB',
  // Banks known by their initials.
  'BMO',
  'PNC',
  'TD',
  'HSBC',
  'BBVA',
  'UBS',
  'MUFG',
  'CIBC',
  'TIAA',
  'TCF',
  'OZK',
  'FNB',
  'CNB',
  'NBT',
  'NBH',
  'IBEW',
  // Places.
  'US',
  'USA',
  'OKC',
  'NY',
  'NYC',
  'DC',
]);

/**
 * A FedACH institution name ("ALPS FEDERAL CREDIT UNION") in title case, as docs/product-rules.md §bank-details shows bank names:
 * "Alps Federal Credit Union". Linking words are lowercased after the first ("Bank of the West"), ordinals read
 * "1st", an apostrophe keeps the word together ("People's"), and a few bank abbreviations stay in capitals
 * ("TD Bank NA", "N.A."). The directory has no original casing, so "JPMORGAN" becomes "Jpmorgan". A name that
 * already has lower case (from a lookup service) is kept as it is.
 */
export function displayBankName(name: string): string {
  const trimmed = name.trim().replace(/\s+/g, ' ');
  if (/[a-z]/.test(trimmed)) return trimmed;
  return trimmed
    .split(' ')
    .map((token, position) => {
      const bare = token.replace(/[.,()]/g, '');
      if (BANK_ACRONYMS.has(bare) || /^(?:[A-Z]\.)+,?$/.test(token)) return token;
      if (LOWER_WORDS.has(bare) && position > 0) return token.toLowerCase();
      if (/^\d+(?:ST|ND|RD|TH)\b/.test(token)) return token.toLowerCase();
      return token.replace(/[A-Z][A-Z']*/g, capitalizeWord);
    })
    .join(' ');
}
