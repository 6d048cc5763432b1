import { describe, expect, it } from 'vitest';
import { breakerText } from './breaker-text';

const breaker = { failures: 3, skips: 2 };
const now = Date.parse('2026-11-26T12:00:00Z');

describe('a buyer breaker in the health table', () => {
  it('gives the time an open breaker waits for', () => {
    const text = breakerText({ ...breaker, state: 'open', openUntil: '2026-11-26T12:00:30Z' }, now);
    expect(text).toMatch(/^Open until \d\d:\d\d:\d\d$/);
  });

  it('says the cool-down is over once that time has passed, not a time already gone', () => {
    expect(breakerText({ ...breaker, state: 'open', openUntil: '2026-11-26T11:59:30Z' }, now)).toBe(
      'Open, cool-down over: the next lead is its trial',
    );
  });

  it('names the closed and half-open states', () => {
    expect(breakerText({ ...breaker, state: 'closed', openUntil: null }, now)).toBe('Closed');
    expect(breakerText({ ...breaker, state: 'half-open', openUntil: null }, now)).toBe('Half-open (trial)');
  });
});
