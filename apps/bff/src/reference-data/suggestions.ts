import { readdir } from 'node:fs/promises';
import { join } from 'node:path';

import type { SuggestField } from '@funnel/contracts/api';

import { ONET_ATTRIBUTION } from './attributions.js';
import { parseCsvRecords } from './csv.js';
import { displayCompanyName, displaySurname } from './display-names.js';
import { readOptionalFile } from './read-optional-file.js';
import {
  buildSuggestionIndex,
  foldForSearch,
  type SuggestionEntry,
  type SuggestionIndex,
} from './suggestion-index.js';

/** Autocomplete for the funnel's free-text fields, built once at start. */
export interface Suggestions {
  /**
   * Up to `limit` (default 10, at most {@link MAX_SUGGESTIONS}) suggestions for `field` starting with `q`,
   * compared case-, accent- and punctuation-insensitively. A query outside 1–49 characters, or a field whose
   * data is not loaded, answers [].
   */
  suggest(field: SuggestField, q: string, limit?: number): string[];
  /** How many distinct suggestions each field has; 0 when its file is missing. */
  readonly loaded: Readonly<Record<SuggestField, number>>;
  /** Attribution lines the product must show while this data is in use. */
  readonly attributions: readonly string[];
}

export const MAX_SUGGESTIONS = 50;
const MAX_QUERY_LENGTH = 49;

/** File paths inside the reference data directory. The SEC file is the newest `sec_edgar_companies_*.csv`. */
export const SUGGESTION_FILES = {
  firstNames: join('names', 'us_first_names_ssa_1880_2024_top10000.csv'),
  surnames: join('names', 'us_surnames_census2010_top20000.csv'),
  jobTitles: join('job_titles', 'job_titles_common.csv'),
  alternateJobTitles: join('job_titles', 'onet_29_3_alternate_titles.csv'),
  employersFolder: 'employers',
} as const;
const SEC_COMPANIES_FILE = /^sec_edgar_companies_.*\.csv$/;

// Census entries that are placeholders rather than surnames people type (see SOURCES.md).
const PLACEHOLDER_SURNAMES = new Set(['NULL', 'DOE']);

// Job-title tiers: everyday titles (reported by O*NET survey respondents or BLS direct-match titles) first, then
// the plural SOC/O*NET occupation names, then O*NET's long alternate-title list as a fallback. Within a tier the
// more frequent title comes first: frequency is how many O*NET occupations list it as an alternate title ("Cashier"
// four, "Cash Register Operator" none; "Nurse" three, "Nursing Aide" one), then alphabetically.
const JOB_TITLE_WEIGHT = { everyday: 2000, occupation: 1000, alternate: 0 } as const;

/**
 * Loads the suggestion datasets from `dir` in parallel. Without `dir`, or for each missing file, that field
 * answers []. Malformed files (a missing column, an unterminated quote) throw.
 */
export async function loadSuggestions(dir?: string): Promise<Suggestions> {
  const [firstNames, surnames, jobTitles, employers] = await Promise.all([
    dir === undefined ? undefined : loadFirstNames(dir),
    dir === undefined ? undefined : loadSurnames(dir),
    dir === undefined ? undefined : loadJobTitles(dir),
    dir === undefined ? undefined : loadEmployers(dir),
  ]);
  const indexes: Record<SuggestField, SuggestionIndex | undefined> = {
    first_name: firstNames && buildSuggestionIndex(firstNames),
    last_name: surnames && buildSuggestionIndex(surnames),
    job_title: jobTitles && buildSuggestionIndex(jobTitles),
    employer: employers && buildSuggestionIndex(employers),
  };
  return {
    suggest(field, q, limit = 10) {
      if (typeof q !== 'string' || q.length < 1 || q.length > MAX_QUERY_LENGTH) return [];
      const index = Object.hasOwn(indexes, field) ? indexes[field] : undefined;
      const found = index?.suggest(q, Math.min(limit, MAX_SUGGESTIONS)) ?? [];
      if (field !== 'first_name' && field !== 'last_name') return found;
      // The name lists are unaccented: a visitor who types "Renée" is offered "Renée", not "Renee".
      return [...new Set(found.map((name) => withTypedAccents(q, name)))];
    },
    loaded: {
      first_name: indexes.first_name?.size ?? 0,
      last_name: indexes.last_name?.size ?? 0,
      job_title: indexes.job_title?.size ?? 0,
      employer: indexes.employer?.size ?? 0,
    },
    // Every job-title file holds O*NET content; the other suggestion datasets are US government works.
    attributions: indexes.job_title?.size ? [ONET_ATTRIBUTION] : [],
  };
}

/** SSA first names, already in title case, weighted by births 1880–2024. */
async function loadFirstNames(dir: string): Promise<SuggestionEntry[] | undefined> {
  const text = await readOptionalFile(join(dir, SUGGESTION_FILES.firstNames));
  if (text === undefined) return undefined;
  return parseCsvRecords(text, ['name', 'count']).map((row) => ({
    text: row.name.trim(),
    weight: Number(row.count),
  }));
}

/** Census 2010 surnames, title-cased, weighted by the number of people. */
async function loadSurnames(dir: string): Promise<SuggestionEntry[] | undefined> {
  const text = await readOptionalFile(join(dir, SUGGESTION_FILES.surnames));
  if (text === undefined) return undefined;
  return parseCsvRecords(text, ['name', 'count'])
    .filter((row) => !PLACEHOLDER_SURNAMES.has(row.name.trim().toUpperCase()))
    .map((row) => ({ text: displaySurname(row.name), weight: Number(row.count) }));
}

async function loadJobTitles(dir: string): Promise<SuggestionEntry[] | undefined> {
  const [common, alternates] = await Promise.all([
    readOptionalFile(join(dir, SUGGESTION_FILES.jobTitles)),
    readOptionalFile(join(dir, SUGGESTION_FILES.alternateJobTitles)),
  ]);
  if (common === undefined && alternates === undefined) return undefined;
  const alternateTitles =
    alternates === undefined
      ? []
      : parseCsvRecords(alternates, ['alternate_title']).map((row) => row.alternate_title.trim());
  const frequency = new Map<string, number>();
  for (const title of alternateTitles) {
    const key = foldForSearch(title);
    frequency.set(key, (frequency.get(key) ?? 0) + 1);
  }
  const weighted = (title: string, tier: number) => ({
    text: title,
    weight: tier + (frequency.get(foldForSearch(title)) ?? 0),
  });
  const entries: SuggestionEntry[] = [];
  if (common !== undefined) {
    for (const row of parseCsvRecords(common, ['title', 'sources'])) {
      const sources = row.sources.split('|');
      const title = row.title.trim();
      const everyday = sources.includes('onet_reported') || sources.includes('bls_dmtf');
      if (everyday) {
        entries.push(weighted(title, JOB_TITLE_WEIGHT.everyday));
        continue;
      }
      // Occupation names are plural ("Pharmacy Technicians"); a person names their own job in the singular
      // (docs/product-rules.md §suggestions drops plurals). One that names several jobs ("Accountants and Auditors") only fills in.
      const singular = singularJobTitle(title);
      entries.push(
        singular === undefined
          ? weighted(title, JOB_TITLE_WEIGHT.alternate)
          : weighted(singular, JOB_TITLE_WEIGHT.occupation),
      );
    }
  }
  for (const title of alternateTitles) entries.push(weighted(title, JOB_TITLE_WEIGHT.alternate));
  return entries;
}

/**
 * `suggestion` with the accented letters the visitor typed at its start: "Renée" typed, "Renee" found →
 * "Renée"; "rené" typed, "Renee" found → "Renée" (the suggestion's capitals kept). When the typed text does not
 * line up letter for letter with the suggestion's start (punctuation, "ß" for "ss"), the suggestion is kept as
 * it is.
 */
export function withTypedAccents(typed: string, suggestion: string): string {
  const letters = [...typed.trim().normalize('NFC')];
  if (letters.every((letter) => letter <= '~')) return suggestion;
  const start = [...suggestion];
  if (letters.length > start.length) return suggestion;
  const merged = letters.map((letter, i) => {
    const found = start[i] ?? '';
    if (foldForSearch(letter) !== foldForSearch(found) || foldForSearch(found) === '') return undefined;
    if (letter === found || letter <= '~') return found;
    return found === found.toUpperCase() ? letter.toUpperCase() : letter.toLowerCase();
  });
  if (merged.some((letter) => letter === undefined)) return suggestion;
  return [...merged, ...start.slice(letters.length)].join('');
}

/**
 * The singular of an occupation name that names one job ("Pharmacy Technicians" → "Pharmacy Technician",
 * "Actuaries" → "Actuary", "Coaches" → "Coach"); undefined for one that lists several ("Janitors and Cleaners,
 * Except …") or does not end in a plural.
 */
export function singularJobTitle(title: string): string | undefined {
  if (/,| and | or |\//i.test(title)) return undefined;
  const words = title.split(' ');
  const last = words.pop() ?? '';
  let singular: string | undefined;
  if (/[^aeiou]ies$/i.test(last)) singular = `${last.slice(0, -3)}y`;
  else if (/(?:ch|sh|ss|x)es$/i.test(last)) singular = last.slice(0, -2);
  else if (/[^su]s$/i.test(last)) singular = last.slice(0, -1);
  return singular === undefined ? undefined : [...words, singular].join(' ');
}

/**
 * SEC EDGAR companies with readable names, weighted by their position in the SEC's list, which follows market
 * capitalisation: the first company gets the highest weight.
 */
async function loadEmployers(dir: string): Promise<SuggestionEntry[] | undefined> {
  const file = await newestSecCompaniesFile(join(dir, SUGGESTION_FILES.employersFolder));
  const text = file === undefined ? undefined : await readOptionalFile(file);
  if (text === undefined) return undefined;
  return parseCsvRecords(text, ['sec_order', 'name']).map((row) => ({
    text: displayCompanyName(row.name),
    weight: -Number(row.sec_order),
  }));
}

async function newestSecCompaniesFile(folder: string): Promise<string | undefined> {
  let names: string[];
  try {
    names = await readdir(folder);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw error;
  }
  // The file name carries the ISO date of the SEC list, so the last name in sort order is the newest.
  const newest = names
    .filter((name) => SEC_COMPANIES_FILE.test(name))
    .sort()
    .at(-1);
  return newest === undefined ? undefined : join(folder, newest);
}
