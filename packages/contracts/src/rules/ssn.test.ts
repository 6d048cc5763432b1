import { describe, expect, it } from 'vitest';
import { formatSsn, hasSsnFormat, isValidSsn, ssnDigits } from './ssn.js';

describe('isValidSsn', () => {
  it('accepts the dashed and the plain form', () => {
    expect(isValidSsn('123-45-6789')).toBe(true);
    expect(isValidSsn('123456789')).toBe(true);
  });

  it('accepts the edges of the valid ranges', () => {
    expect(isValidSsn('001-01-0001')).toBe(true);
    expect(isValidSsn('665-99-9999')).toBe(true);
    expect(isValidSsn('667-01-0001')).toBe(true);
    expect(isValidSsn('899-99-9999')).toBe(true);
  });

  it('rejects area 000', () => {
    expect(isValidSsn('000-12-3456')).toBe(false);
    expect(isValidSsn('000123456')).toBe(false);
  });

  it('rejects area 666', () => {
    expect(isValidSsn('666-12-3456')).toBe(false);
  });

  it.each(['900-12-3456', '950-70-1234', '999-99-9999'])('rejects area 900–999: %s', (ssn) => {
    expect(isValidSsn(ssn)).toBe(false);
  });

  it('rejects group 00', () => {
    expect(isValidSsn('123-00-4567')).toBe(false);
    expect(isValidSsn('123004567')).toBe(false);
  });

  it('rejects serial 0000', () => {
    expect(isValidSsn('123-45-0000')).toBe(false);
    expect(isValidSsn('123450000')).toBe(false);
  });

  it.each([
    '12345678',
    '1234567890',
    '123-45-678',
    '123 45 6789',
    '123-456789',
    '12345-6789',
    'abc-de-fghi',
    '',
  ])('rejects %j: neither ###-##-#### nor nine digits', (value) => {
    expect(isValidSsn(value)).toBe(false);
  });
});

describe('ssnDigits', () => {
  it('strips the dashes', () => {
    expect(ssnDigits('123-45-6789')).toBe('123456789');
    expect(ssnDigits('123456789')).toBe('123456789');
  });
});

describe('formatSsn', () => {
  it('formats nine digits', () => {
    expect(formatSsn('123456789')).toBe('123-45-6789');
  });

  it('is idempotent', () => {
    expect(formatSsn('123-45-6789')).toBe('123-45-6789');
  });

  it('formats partial input as a mask does', () => {
    expect(formatSsn('')).toBe('');
    expect(formatSsn('123')).toBe('123');
    expect(formatSsn('1234')).toBe('123-4');
    expect(formatSsn('12345')).toBe('123-45');
    expect(formatSsn('123456')).toBe('123-45-6');
  });

  it('drops digits past the ninth', () => {
    expect(formatSsn('1234567890')).toBe('123-45-6789');
  });
});

describe('hasSsnFormat', () => {
  it('separates a wrong format from a number that is never issued', () => {
    expect(hasSsnFormat('666-12-3456')).toBe(true);
    expect(isValidSsn('666-12-3456')).toBe(false);
    expect(hasSsnFormat('000000000')).toBe(true);
    expect(hasSsnFormat('123-456789')).toBe(false);
    expect(hasSsnFormat('123-45-678')).toBe(false);
  });
});
