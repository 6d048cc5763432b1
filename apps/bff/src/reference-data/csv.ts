/**
 * RFC 4180 CSV parsing for the reference files: comma separator, fields optionally wrapped in double quotes,
 * `""` inside a quoted field is one quote, and quoted fields may hold commas and line breaks. Rows end with LF
 * or CRLF; a UTF-8 byte-order mark and a final empty line are ignored. A quote inside an unquoted field is kept
 * as a literal character, as spreadsheets do.
 *
 * @throws Error when a quoted field is never closed, since the rest of the file would be misread.
 */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const length = text.length;

  while (i < length) {
    const char = text[i];
    if (char === '"' && field === '') {
      const start = i;
      i += 1;
      for (;;) {
        const close = text.indexOf('"', i);
        if (close === -1) throw new Error(`CSV: unterminated quoted field starting at offset ${start}`);
        field += text.slice(i, close);
        if (text[close + 1] === '"') {
          field += '"';
          i = close + 2;
        } else {
          i = close + 1;
          break;
        }
      }
      // Anything between the closing quote and the next separator is kept, rather than silently dropped.
      continue;
    }
    if (char === ',') {
      row.push(field);
      field = '';
      i += 1;
    } else if (char === '\n' || (char === '\r' && text[i + 1] === '\n')) {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i += char === '\r' ? 2 : 1;
    } else {
      const next = nextSpecial(text, i);
      field += text.slice(i, next);
      i = next;
    }
  }
  if (field !== '' || row.length > 0) {
    row.push(field);
    rows.push(row);
  }
  return rows;
}

/**
 * Parses CSV with a header row into records keyed by column name. Every name in `requiredColumns` must be in
 * the header; blank lines are skipped and rows with fewer fields than the header answer '' for the missing
 * ones.
 *
 * @throws Error when the header lacks a required column, so a renamed or wrong file fails at start.
 */
export function parseCsvRecords<Column extends string>(
  text: string,
  requiredColumns: readonly Column[],
): Record<Column, string>[] {
  const [header, ...rows] = parseCsv(text);
  if (!header) return [];
  const positions = requiredColumns.map((column) => {
    const position = header.indexOf(column);
    if (position === -1) throw new Error(`CSV: missing column "${column}" (header: ${header.join(',')})`);
    return [column, position] as const;
  });
  return rows
    .filter((row) => row.length > 1 || row[0] !== '')
    .map((row) => {
      const record = {} as Record<Column, string>;
      for (const [column, position] of positions) record[column] = row[position] ?? '';
      return record;
    });
}

const FIELD_END = /[,\n]|\r\n/g;

/** Where the unquoted field starting at `from` ends: the next ',' or line break (a lone '\r' is data). */
function nextSpecial(text: string, from: number): number {
  FIELD_END.lastIndex = from;
  return FIELD_END.exec(text)?.index ?? text.length;
}
