/** A suggestion as it is shown, with its rank: a higher weight is suggested first. */
export interface SuggestionEntry {
  readonly text: string;
  readonly weight: number;
}

/** Prefix autocomplete over a fixed list, built once. */
export interface SuggestionIndex {
  /**
   * The best `limit` entries whose folded form (see {@link foldForSearch}) starts with the folded `prefix`
   * (docs/product-rules.md §suggestions): the entry the prefix spells exactly first, then the highest weight (frequency in the source
   * data), then alphabetically as shown, ignoring case, accents and punctuation ("Cash Clerk" before "Cashier").
   * The plural or near-duplicate of an entry already listed ("Cashiers" after "Cashier") is
   * dropped. A prefix that folds to nothing answers [].
   */
  suggest(prefix: string, limit?: number): string[];
  /** Entries left after deduplication. */
  readonly size: number;
}

const NON_ASCII = /[^ -~]/;
const COMBINING_MARKS = /[\u0300-\u036f]/g;
const NOT_ALPHANUMERIC = /[^a-z0-9]/g;
// Letters that Unicode decomposition leaves alone but people type for a plain one.
const LIGATURES: Readonly<Record<string, string>> = {
  ß: 'ss',
  æ: 'ae',
  œ: 'oe',
  ø: 'o',
  ł: 'l',
  đ: 'd',
  ı: 'i',
};
const LIGATURE_PATTERN = /[ßæœøłđı]/g;

/**
 * The form entries are matched in: lower case, accents removed, and everything but letters and digits dropped,
 * so "O'Brien", "o brien" and "OBRIEN" all become "obrien" and "José" matches "Jose".
 */
export function foldForSearch(text: string): string {
  return foldKeepingSpaces(text).replace(NOT_ALPHANUMERIC, '');
}

/** Like {@link foldForSearch} but word breaks stay, so "Cash Clerk" sorts before "Cashier" as people expect. */
function alphabeticalKey(text: string): string {
  return foldKeepingSpaces(text)
    .replace(/[^a-z0-9\s]/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

function foldKeepingSpaces(text: string): string {
  const lower = text.toLowerCase();
  // Nearly every entry is plain ASCII; Unicode decomposition is by far the slowest step at start.
  if (!NON_ASCII.test(lower)) return lower;
  return lower
    .normalize('NFKD')
    .replace(COMBINING_MARKS, '')
    .replace(LIGATURE_PATTERN, (letter) => LIGATURES[letter] ?? '');
}

/**
 * Builds the index: entries are deduplicated by folded form (keeping the highest weight, then the first seen)
 * and sorted by folded form. A query finds its range with two binary searches and keeps the best `limit`
 * entries of the range in one pass, so it costs O(log n + range · limit) at worst, and about the range
 * length in practice: tens of microseconds for a one-letter prefix over tens of thousands of entries.
 */
export function buildSuggestionIndex(entries: Iterable<SuggestionEntry>): SuggestionIndex {
  const table = buildTable(entries);
  return {
    size: table.keys.length,
    suggest(prefix, limit = 10) {
      const folded = foldForSearch(prefix);
      const wanted = Math.floor(limit);
      if (folded === '' || !(wanted >= 1)) return [];
      const start = lowerBound(table.keys, folded);
      // Keys hold only [a-z0-9], so every key with this prefix sorts before prefix + '\uffff'.
      const end = lowerBound(table.keys, `${folded}\uffff`, start);
      // Keys sort before their extensions, so the exact entry, if any, opens the range.
      const exact = table.keys[start] === folded ? [start] : [];
      // Room for the duplicates dropped below: each kept entry can hide at most a few of its variants.
      const ranked = [...exact, ...best(table, start + exact.length, end, wanted * 3)];
      return withoutVariants(ranked, table.keys)
        .slice(0, wanted)
        .map((position) => table.texts[position] ?? '');
    },
  };
}

/** Parallel arrays in folded-key order; built in its own scope so the build's temporaries can be collected. */
interface Table {
  keys: string[];
  texts: string[];
  weights: Float64Array;
  alphabeticalRank: Uint32Array;
}

function buildTable(entries: Iterable<SuggestionEntry>): Table {
  const byKey = new Map<string, SuggestionEntry>();
  for (const entry of entries) {
    const key = foldForSearch(entry.text);
    if (key === '' || !Number.isFinite(entry.weight)) continue;
    const seen = byKey.get(key);
    if (!seen || entry.weight > seen.weight) byKey.set(key, entry);
  }
  const keys = [...byKey.keys()].sort();
  const sorted = keys.map((key) => byKey.get(key) ?? { text: '', weight: 0 });
  const texts = sorted.map((entry) => entry.text);
  const weights = Float64Array.from(sorted, (entry) => entry.weight);

  const alphabetical = texts.map(alphabeticalKey);
  const alphabeticalRank = new Uint32Array(texts.length);
  texts
    .map((_, position) => position)
    .sort((a, b) => compareStrings(alphabetical[a] ?? '', alphabetical[b] ?? '') || a - b)
    .forEach((position, rank) => {
      alphabeticalRank[position] = rank;
    });
  return { keys, texts, weights, alphabeticalRank };
}

function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function lowerBound(sorted: readonly string[], value: string, from = 0): number {
  let low = from;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((sorted[middle] ?? '') < value) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** Folded keys that read as the same entry to a person: a plural (-s, -es, -y → -ies) or a spacing variant. */
function variantsOf(key: string): string[] {
  const variants = [`${key}s`, `${key}es`];
  if (key.endsWith('y')) variants.push(`${key.slice(0, -1)}ies`);
  return variants;
}

/** `positions` in order, without an entry that is a plural of one kept before or after it in the list. */
function withoutVariants(positions: readonly number[], keys: readonly string[]): number[] {
  const kept: number[] = [];
  const hidden = new Set<string>();
  for (const position of positions) {
    const key = keys[position] ?? '';
    if (hidden.has(key)) continue;
    kept.push(position);
    hidden.add(key);
    for (const variant of variantsOf(key)) hidden.add(variant);
    // A singular listed after its plural is the same entry too ("Cashier" below "Cashiers").
    for (const singular of [key.replace(/ies$/, 'y'), key.replace(/es$/, ''), key.replace(/s$/, '')]) {
      if (singular !== key) hidden.add(singular);
    }
  }
  return kept;
}

/** Positions of the `limit` best entries in [start, end): highest weight first, then alphabetical. */
function best({ weights, alphabeticalRank }: Table, start: number, end: number, limit: number): number[] {
  const isBetter = (a: number, b: number): boolean => {
    const weightA = weights[a] ?? 0;
    const weightB = weights[b] ?? 0;
    return (
      weightA > weightB || (weightA === weightB && (alphabeticalRank[a] ?? 0) < (alphabeticalRank[b] ?? 0))
    );
  };
  const chosen: number[] = [];
  for (let position = start; position < end; position += 1) {
    if (chosen.length === limit) {
      if (!isBetter(position, chosen[limit - 1] ?? position)) continue;
      chosen.pop();
    }
    let slot = chosen.length;
    while (slot > 0 && isBetter(position, chosen[slot - 1] ?? position)) slot -= 1;
    chosen.splice(slot, 0, position);
  }
  return chosen;
}
