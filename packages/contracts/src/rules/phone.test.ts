import { describe, expect, it } from 'vitest';
import { isValidUsPhone, normalizePhoneDigits } from './phone.js';

describe('normalizePhoneDigits', () => {
  it('keeps only the digits of the masked input', () => {
    expect(normalizePhoneDigits('(212)-555-1234')).toBe('2125551234');
    expect(normalizePhoneDigits('(212)-555-____')).toBe('212555');
    expect(normalizePhoneDigits('212.555.1234 ')).toBe('2125551234');
  });

  it('drops the country code of an autofilled +1 number', () => {
    expect(normalizePhoneDigits('+1 (212) 555-1234')).toBe('2125551234');
    expect(normalizePhoneDigits('12125551234')).toBe('2125551234');
  });

  it('leaves other 11-digit input alone so validation rejects it', () => {
    expect(normalizePhoneDigits('22125551234')).toBe('22125551234');
  });
});

describe('isValidUsPhone', () => {
  it.each([
    ['2125551234', 'New York'],
    ['3105550199', 'Los Angeles'],
    ['2025550181', 'Washington DC'],
    ['8005551234', 'toll-free'],
    ['4165551234', 'Toronto: NANP, not US'],
    ['7875551234', 'Puerto Rico'],
  ])('accepts %s (%s)', (digits) => {
    expect(isValidUsPhone(digits)).toBe(true);
  });

  it.each(['0125551234', '1125551234'])('rejects %s: area code starts with 0 or 1', (digits) => {
    expect(isValidUsPhone(digits)).toBe(false);
  });

  it.each(['2120551234', '2121551234', '2121234567'])('rejects %s: exchange starts with 0 or 1', (digits) => {
    expect(isValidUsPhone(digits)).toBe(false);
  });

  it.each(['212555123', '21255512345', '12125551234', ''])('rejects %j: not 10 digits', (digits) => {
    expect(isValidUsPhone(digits)).toBe(false);
  });

  it.each(['(212)-555-1234', '212-555-1234', '+12125551234'])('rejects %j: not digits only', (value) => {
    expect(isValidUsPhone(value)).toBe(false);
  });

  it.each([
    ['9995551234', 'unassigned area code'],
    ['3705551234', 'unassigned area code'],
    ['9115551234', 'N11 service code'],
    ['5555551234', 'area code 555'],
  ])('rejects %s (%s) by the phone metadata', (digits) => {
    expect(isValidUsPhone(digits)).toBe(false);
  });
});
