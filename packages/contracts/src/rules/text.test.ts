import { describe, expect, it } from 'vitest';
import { hasOnlySupportedCharacters, withoutUnsupportedCharacters } from './text.js';

describe('free-text characters', () => {
  it.each([
    ['NUL', 'Bo\u0000b'],
    ['BEL', 'Bob\u0007'],
    ['an ANSI colour escape', '\u001b[31mBob'],
    ['DEL', 'Bob\u007f'],
    ['a C1 control', 'Bob\u0085'],
    ['a right-to-left override', 'Bob\u202Eevil'],
    ['a first-strong isolate', 'Bob\u2068'],
    ['a lone high surrogate', 'Bob\ud83d'],
    ['a lone low surrogate', '\ude00Bob'],
    ['a tab', 'Bob\tSmith'],
    ['a line feed', 'Bob\nSmith'],
  ])('refuses %s', (_name, value) => {
    expect(hasOnlySupportedCharacters(value)).toBe(false);
  });

  it.each([
    ['accented Latin', 'José Núñez'],
    ['Hebrew (right-to-left, no override)', 'דוד'],
    ['an emoji (a surrogate pair)', 'Bob 😀'],
    ['punctuation', "O'Brien-Smith, Jr."],
  ])('accepts %s', (_name, value) => {
    expect(hasOnlySupportedCharacters(value)).toBe(true);
  });

  it('strips every unsupported character from text a person did not type', () => {
    expect(withoutUnsupportedCharacters('\u0000\u0007\u001b[31mBob\u202Eevil\ud83d')).toBe('[31mBobevil');
  });
});
