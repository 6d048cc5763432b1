import { describe, expect, it } from 'vitest';

import { buildSuggestionIndex, foldForSearch } from './suggestion-index.js';

describe('foldForSearch', () => {
  it('drops case, accents, punctuation and spaces', () => {
    expect(["O'Brien", 'o brien', 'OBRIEN', 'José', 'Straße', 'AT&T Inc.'].map(foldForSearch)).toEqual([
      'obrien',
      'obrien',
      'obrien',
      'jose',
      'strasse',
      'attinc',
    ]);
  });
});

describe('buildSuggestionIndex', () => {
  const index = buildSuggestionIndex([
    { text: 'Marcus', weight: 10 },
    { text: 'Mary', weight: 50 },
    { text: 'Mark', weight: 20 },
    { text: 'Martha', weight: 20 },
    { text: 'MARY', weight: 5 },
    { text: "O'Brien", weight: 3 },
    { text: 'Cashier', weight: 1 },
    { text: 'Cash Clerk', weight: 1 },
    { text: 'Zoë', weight: 1 },
  ]);

  it('ranks matches by weight, then alphabetically', () => {
    expect(index.suggest('mar')).toEqual(['Mary', 'Mark', 'Martha', 'Marcus']);
  });

  it('orders equal weights alphabetically as shown, word breaks first', () => {
    expect(index.suggest('cash')).toEqual(['Cash Clerk', 'Cashier']);
  });

  it('deduplicates case-insensitively, keeping the highest weight spelling', () => {
    expect(index.size).toBe(8);
    expect(index.suggest('MARY')).toEqual(['Mary']);
  });

  it('folds punctuation and accents on both sides', () => {
    expect(index.suggest("o'b")).toEqual(["O'Brien"]);
    expect(index.suggest('ob')).toEqual(["O'Brien"]);
    expect(index.suggest('zoe')).toEqual(['Zoë']);
  });

  it('honours the limit', () => {
    expect(index.suggest('ma', 2)).toEqual(['Mary', 'Mark']);
    expect(index.suggest('ma', 0)).toEqual([]);
    expect(index.suggest('ma', Number.NaN)).toEqual([]);
  });

  it('answers [] for no match and for a prefix that folds to nothing', () => {
    expect(index.suggest('xyz')).toEqual([]);
    expect(index.suggest('')).toEqual([]);
    expect(index.suggest("' -")).toEqual([]);
  });

  it('skips entries without letters or digits or with a non-finite weight', () => {
    const odd = buildSuggestionIndex([
      { text: '---', weight: 1 },
      { text: 'Valid', weight: Number.NaN },
      { text: 'Fine', weight: 1 },
    ]);
    expect(odd.size).toBe(1);
  });

  // How fast it answers is a benchmark's question, not a test's (docs/adr/0028): here, that the fast path for
  // short prefixes agrees with a plain sort of the matching entries, for every letter.
  it('answers every one-letter prefix over 56,000 entries as a plain sort of the matching entries would', () => {
    const entries = syntheticEntries(56_000);
    const large = buildSuggestionIndex(entries);
    for (const letter of 'abcdefghijklmnopqrstuvwxyz') {
      const expected = entries
        .filter((entry) => entry.text.toLowerCase().startsWith(letter))
        .sort((a, b) => b.weight - a.weight || (a.text < b.text ? -1 : 1))
        .slice(0, 10)
        .map((entry) => entry.text);
      expect(large.suggest(letter), letter).toEqual(expected);
    }
  });

  it('puts the entry the prefix spells first, then drops plurals and singulars of an entry shown', () => {
    const jobs = buildSuggestionIndex([
      { text: 'Nursery Teacher', weight: 5 },
      { text: 'Nurse', weight: 1 },
      { text: 'Nurses', weight: 9 },
      { text: 'Secretary', weight: 2 },
      { text: 'Secretaries', weight: 3 },
    ]);
    expect(jobs.suggest('nurse')).toEqual(['Nurse', 'Nursery Teacher']);
    expect(jobs.suggest('nur')).toEqual(['Nurses', 'Nursery Teacher']);
    expect(jobs.suggest('secr')).toEqual(['Secretaries']);
    expect(jobs.suggest('nur', 1)).toEqual(['Nurses']);
  });
});

/** Distinct lower-case words with distinct weights, from a fixed-seed generator so runs are repeatable. */
function syntheticEntries(count: number): { text: string; weight: number }[] {
  // xorshift32: stays within 32-bit integers, so it never loses precision and cycles only after 2^32 - 1 steps.
  let state = 42;
  const random = (): number => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 2 ** 32;
  };
  const seen = new Set<string>();
  const entries: { text: string; weight: number }[] = [];
  while (entries.length < count) {
    const length = 4 + Math.floor(random() * 8);
    let text = '';
    for (let i = 0; i < length; i += 1) text += String.fromCharCode(97 + Math.floor(random() * 26));
    if (seen.has(text)) continue;
    seen.add(text);
    entries.push({ text, weight: entries.length });
  }
  return entries;
}
