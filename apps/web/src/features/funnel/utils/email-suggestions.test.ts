import { describe, expect, it } from 'vitest';
import { emailSuggestions } from './email-suggestions';

describe('emailSuggestions', () => {
  it('offers nothing before an @ is typed', () => {
    expect(emailSuggestions('jane')).toEqual([]);
    expect(emailSuggestions('@gmail')).toEqual([]);
  });

  it('offers every common domain right after the @', () => {
    expect(emailSuggestions('jane@')).toHaveLength(7);
  });

  it('narrows to the domains starting with what follows the @', () => {
    expect(emailSuggestions('jane@ho')).toEqual(['jane@hotmail.com']);
    expect(emailSuggestions('jane@GM')).toEqual(['jane@gmail.com']);
    expect(emailSuggestions('jane@example.org')).toEqual([]);
  });
});
