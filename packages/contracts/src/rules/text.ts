/**
 * Characters no free-text answer may hold (issue 12): C0 and C1 control characters (NUL, BEL, ESC of an ANSI
 * escape, DEL), the bidirectional embeddings, overrides and isolates that make stored text read differently from
 * what it holds, and lone UTF-16 surrogates, which are no character at all. Marks such as LRM are left alone:
 * they only influence how neighbouring text is ordered.
 */
// eslint-disable-next-line no-control-regex -- control characters are exactly what this finds
const UNSUPPORTED = /[\u0000-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069]|\p{Cs}/u;
// eslint-disable-next-line no-control-regex -- as above, every occurrence
const UNSUPPORTED_ALL = /[\u0000-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069]|\p{Cs}/gu;

/** True when `value` holds none of the characters above. */
export function hasOnlySupportedCharacters(value: string): boolean {
  return !UNSUPPORTED.test(value);
}

/** `value` without the characters above, for text a person did not type (tracking parameters of a URL). */
export function withoutUnsupportedCharacters(value: string): string {
  return value.replace(UNSUPPORTED_ALL, '');
}
