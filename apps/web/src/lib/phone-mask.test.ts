import { describe, expect, it } from 'vitest';
import { formatPhoneMask } from './phone-mask';

describe('formatPhoneMask', () => {
  it('formats as far as the digits go', () => {
    expect(formatPhoneMask('')).toBe('');
    expect(formatPhoneMask('2')).toBe('(2');
    expect(formatPhoneMask('212')).toBe('(212');
    expect(formatPhoneMask('2125')).toBe('(212) 5');
    expect(formatPhoneMask('212555')).toBe('(212) 555');
    expect(formatPhoneMask('2125550123')).toBe('(212) 555-0123');
  });

  it('ignores punctuation and extra digits', () => {
    expect(formatPhoneMask('(212) 555-01234')).toBe('(212) 555-0123');
    expect(formatPhoneMask('212.555.0123')).toBe('(212) 555-0123');
  });

  it("drops autofill's country code", () => {
    expect(formatPhoneMask('+1 212 555 0123')).toBe('(212) 555-0123');
  });

  it('lets Backspace remove a digit: no punctuation trails the last digit', () => {
    expect(formatPhoneMask('(212) ')).toBe('(212');
  });
});
