import { describe, expect, it } from 'vitest';
import { businessToday, setBusinessTimeZone } from './business-today';

// 03:00 UTC on New Year's Day: still Dec 31 in New York, already Jan 1 east of UTC.
const NEW_YEAR_3AM_UTC = new Date('2026-01-01T03:00:00Z');

describe('businessToday', () => {
  it("is today in the BFF's default zone until the configuration names one, then in that zone", () => {
    expect(businessToday(NEW_YEAR_3AM_UTC)).toBe('2025-12-31');
    setBusinessTimeZone('Pacific/Kiritimati');
    expect(businessToday(NEW_YEAR_3AM_UTC)).toBe('2026-01-01');
  });

  it('keeps the zone in use when the configuration names one Intl does not know', () => {
    setBusinessTimeZone('Pacific/Kiritimati');
    setBusinessTimeZone('Not/A_Zone');
    expect(businessToday(NEW_YEAR_3AM_UTC)).toBe('2026-01-01');
    setBusinessTimeZone('America/New_York');
    expect(businessToday(NEW_YEAR_3AM_UTC)).toBe('2025-12-31');
  });
});
