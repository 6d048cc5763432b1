import { describe, expect, it } from 'vitest';
import { holdAfter, MAX_HOLD_MS } from './sign-in-lockout.js';

describe('holdAfter', () => {
  it.each([
    [1, 0],
    [5, 0],
    [6, 30_000],
    [7, 60_000],
    [8, 120_000],
    [10, 480_000],
    [11, MAX_HOLD_MS],
    [1000, MAX_HOLD_MS],
  ])('holds the account after failure %i for %i ms', (failures, hold) => {
    expect(holdAfter(failures)).toBe(hold);
  });
});
