/* eslint-disable no-control-regex -- matching control characters is the point of this file */

/** C0 controls (NUL among them), DEL and the C1 controls: never in a parameter (docs/adr/0025). */
export const CONTROL_CHARACTER = /[\u0000-\u001f\u007f-\u009f]/;

/** The same, but line breaks and tabs, which a body's free text (a reveal's reason) may hold. */
export const CONTROL_CHARACTER_IN_TEXT = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;

/**
 * `text` with each control character written as `\uXXXX`: PostgreSQL refuses NUL in text, and the audit entry
 * of a refused request must still say what it named.
 */
export function escapeControlCharacters(text: string): string {
  return text.replace(
    new RegExp(CONTROL_CHARACTER.source, 'g'),
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}
