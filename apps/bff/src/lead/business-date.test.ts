import { describe, expect, it } from 'vitest';
import { businessDate } from './business-date.js';

describe('businessDate', () => {
  it("is the calendar date in the business time zone, not the server's", () => {
    // 03:30 UTC on 18 Nov is still the evening of 17 Nov in New York, and already 18 Nov in Tokyo.
    const now = new Date('2026-11-18T03:30:00Z');
    expect(businessDate(now, 'America/New_York')).toBe('2026-11-17');
    expect(businessDate(now, 'Asia/Tokyo')).toBe('2026-11-18');
    expect(businessDate(now, 'America/New_York')).toBe('2026-11-17');
  });

  it('follows daylight saving time', () => {
    expect(businessDate(new Date('2026-07-01T03:59:00Z'), 'America/New_York')).toBe('2026-06-30');
    expect(businessDate(new Date('2026-07-01T04:00:00Z'), 'America/New_York')).toBe('2026-07-01');
  });
});
