import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { afterAll, describe, expect, it } from 'vitest';

import { ONET_ATTRIBUTION } from './attributions.js';
import { loadSuggestions, MAX_SUGGESTIONS, singularJobTitle, withTypedAccents } from './suggestions.js';

const dataDir =
  process.env.REFERENCE_DATA_DIR ?? fileURLToPath(new URL('../../../../../shared/data', import.meta.url));

describe('loadSuggestions from the reference data', async () => {
  const suggestions = await loadSuggestions(dataDir);

  it('loads every field and asks for the O*NET attribution', () => {
    expect(suggestions.loaded.first_name).toBe(10_003);
    expect(suggestions.loaded.last_name).toBe(20_007);
    expect(suggestions.loaded.job_title).toBeGreaterThan(40_000);
    expect(suggestions.loaded.employer).toBeGreaterThan(7_900);
    expect(suggestions.attributions).toEqual([ONET_ATTRIBUTION]);
  });

  it('suggests first names by number of births', () => {
    const names = suggestions.suggest('first_name', 'mar');
    expect(names.slice(0, 4)).toEqual(['Mary', 'Mark', 'Margaret', 'Maria']);
    expect(names.every((name) => name.startsWith('Mar'))).toBe(true);
    const all = suggestions.suggest('first_name', 'mar', MAX_SUGGESTIONS);
    expect(all.indexOf('Mary')).toBeLessThan(all.indexOf('Marcus'));
  });

  it('keeps the accents a visitor typed in the names it offers (issue 25)', () => {
    expect(suggestions.suggest('first_name', 'Renée')[0]).toBe('Renée');
    expect(suggestions.suggest('first_name', 'Renée')).not.toContain('Renee');
    expect(suggestions.suggest('first_name', 'rené').slice(0, 3)).toEqual(
      suggestions
        .suggest('first_name', 'rene')
        .slice(0, 3)
        .map((name) => `René${name.slice(4)}`),
    );
    expect(suggestions.suggest('last_name', 'Muñ')[0]).toMatch(/^Muñ/);
    // Unaccented input is answered as the lists spell it.
    expect(suggestions.suggest('first_name', 'renee')[0]).toBe('Renee');
  });

  it('lines typed accents up letter for letter, or leaves the suggestion alone', () => {
    expect(withTypedAccents('JOSÉ', 'Jose')).toBe('José');
    expect(withTypedAccents('zoë', 'Zoey')).toBe('Zoëy');
    expect(withTypedAccents("o'bé", 'Obrien')).toBe('Obrien');
    expect(withTypedAccents('Renée', 'Rene')).toBe('Rene');
    expect(withTypedAccents('Ann', 'Anna')).toBe('Anna');
  });

  it('matches surnames with the punctuation the Census removed', () => {
    expect(suggestions.suggest('last_name', "o'b")[0]).toBe('Obrien');
    expect(suggestions.suggest('last_name', 'O B')[0]).toBe('Obrien');
    expect(suggestions.suggest('last_name', 'mcd')[0]).toBe('McDonald');
  });

  it('leaves out the Census placeholder surnames', () => {
    expect(suggestions.suggest('last_name', 'null', MAX_SUGGESTIONS)).not.toContain('Null');
    expect(suggestions.suggest('last_name', 'doe', MAX_SUGGESTIONS)).not.toContain('Doe');
  });

  it('puts everyday job titles first', () => {
    const titles = suggestions.suggest('job_title', 'nur');
    expect(titles[0]).toBe('Nurse');
    expect(titles.slice(0, 5).every((title) => title.startsWith('Nurse'))).toBe(true);
    // Plural occupation names and O*NET alternate titles only fill in after the everyday ones.
    expect(suggestions.suggest('job_title', 'cashier', 4)).toEqual([
      'Cashier',
      'Cashier Manager',
      'Cashier Supervisor',
      'Cashier Associate',
    ]);
  });

  it('ranks the more frequent job title first and drops the plural of one shown (docs/product-rules.md §suggestions)', () => {
    const titles = suggestions.suggest('job_title', 'cash', MAX_SUGGESTIONS);
    expect(titles[0]).toBe('Cashier');
    expect(titles.indexOf('Cashier')).toBeLessThan(titles.indexOf('Cash Register Operator'));
    expect(titles).not.toContain('Cashiers');
  });

  it('never leads job titles with a plural occupation name (issue 25, docs/product-rules.md §suggestions)', () => {
    expect(suggestions.suggest('job_title', 'pharmacy tech')[0]).toBe('Pharmacy Technician');
    expect(suggestions.suggest('job_title', 'medical assis')[0]).toBe('Medical Assistant');
    for (const prefix of ['pharmacy', 'medical a', 'registered n', 'act', 'air crew', 'acc']) {
      const titles = suggestions.suggest('job_title', prefix);
      expect(titles, prefix).not.toContain('Pharmacy Technicians');
      expect(titles, prefix).not.toContain('Medical Assistants');
      expect(titles, prefix).not.toContain('Actuaries');
      expect(titles, prefix).not.toContain('Air Crew Members');
      // A name of several jobs only fills in after the single ones.
      expect(titles[0], prefix).not.toMatch(/ and /);
    }
  });

  it('turns a plural occupation name into the job it names, leaving a list of jobs alone', () => {
    expect(
      [
        'Pharmacy Technicians',
        'Actuaries',
        'Coaches',
        'Boss',
        'Air Crew Members',
        'Accountants and Auditors',
      ].map(singularJobTitle),
    ).toEqual(['Pharmacy Technician', 'Actuary', 'Coach', undefined, 'Air Crew Member', undefined]);
  });

  it('suggests bigger employers first, with readable names', () => {
    expect(suggestions.suggest('employer', 'app').slice(0, 2)).toEqual([
      'Apple Inc.',
      'Applied Materials Inc',
    ]);
    expect(suggestions.suggest('employer', 'bank of a')[0]).toBe('Bank of America Corp');
    expect(suggestions.suggest('employer', 'at&t')[0]).toBe('AT&T Inc.');
  });

  it('answers [] outside 1–49 characters and caps the limit', () => {
    expect(suggestions.suggest('first_name', '')).toEqual([]);
    expect(suggestions.suggest('first_name', 'm'.repeat(50))).toEqual([]);
    expect(suggestions.suggest('first_name', 'm')).toHaveLength(10);
    expect(suggestions.suggest('first_name', 'm', 1_000)).toHaveLength(MAX_SUGGESTIONS);
    expect(suggestions.suggest('job_title', `Nurse${' '.repeat(44)}`)[0]).toBe('Nurse');
  });

  it('answers [] for a field it does not know', () => {
    expect(suggestions.suggest('middle_name' as 'first_name', 'mar')).toEqual([]);
    expect(suggestions.suggest('toString' as 'first_name', 'mar')).toEqual([]);
  });
});

describe('loadSuggestions without reference data', () => {
  it.each([undefined, '/nonexistent/reference-data'])('answers [] for every field (dir %s)', async (dir) => {
    const suggestions = await loadSuggestions(dir);
    expect(suggestions.loaded).toEqual({ first_name: 0, last_name: 0, job_title: 0, employer: 0 });
    expect(suggestions.attributions).toEqual([]);
    expect(suggestions.suggest('first_name', 'mar')).toEqual([]);
  });
});

describe('loadSuggestions with part of the directory', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'reference-data-'));
  afterAll(() => rm(dir, { recursive: true, force: true }));

  await mkdir(join(dir, 'names'));
  await mkdir(join(dir, 'employers'));
  await writeFile(
    join(dir, 'names', 'us_first_names_ssa_1880_2024_top10000.csv'),
    'rank,name,count\n1,Ada,5\n',
  );
  await writeFile(
    join(dir, 'employers', 'sec_edgar_companies_2020-01-01.csv'),
    'sec_order,cik,name\n1,1,OLD LIST CO\n',
  );
  await writeFile(
    join(dir, 'employers', 'sec_edgar_companies_2026-08-22.csv'),
    'sec_order,cik,name,tickers\n2,3,"SMALL CO, INC.",S\n1,2,"NEW LIST, INC.",N\n',
  );
  const suggestions = await loadSuggestions(dir);

  it('serves the fields whose files exist and answers [] for the others', () => {
    expect(suggestions.loaded).toEqual({ first_name: 1, last_name: 0, job_title: 0, employer: 2 });
    expect(suggestions.suggest('first_name', 'a')).toEqual(['Ada']);
    expect(suggestions.suggest('last_name', 'a')).toEqual([]);
    expect(suggestions.attributions).toEqual([]);
  });

  it('reads the newest SEC company list', () => {
    expect(suggestions.suggest('employer', 'o')).toEqual([]);
    expect(suggestions.suggest('employer', 'n')).toEqual(['New List, Inc.']);
  });
});
