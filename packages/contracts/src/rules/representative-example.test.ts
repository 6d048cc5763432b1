import { describe, expect, it } from 'vitest';
import { formatUsd, representativeExample } from './representative-example.js';

describe('representativeExample', () => {
  it('reproduces spec §1: $2,500, 12 months, 10 % APR, 3 % fee', () => {
    const example = representativeExample({ principal: 2500, months: 12, aprPercent: 10, feePercent: 3 });
    expect(example).toEqual({
      monthlyPaymentCents: 21979,
      totalPaidCents: 263748,
      interestCents: 13748,
      feeCents: 7500,
    });
    expect(formatUsd(example.monthlyPaymentCents)).toBe('$219.79');
    expect(formatUsd(example.totalPaidCents, { wholeDollars: true })).toBe('$2,637');
    expect(formatUsd(example.interestCents)).toBe('$137.48');
  });

  it('splits the principal evenly at 0 % APR', () => {
    expect(representativeExample({ principal: 1200, months: 12, aprPercent: 0, feePercent: 0 })).toEqual({
      monthlyPaymentCents: 10000,
      totalPaidCents: 120000,
      interestCents: 0,
      feeCents: 0,
    });
  });

  it('matches a second worked amortisation: $1,000, 6 months, 36 % APR', () => {
    // r = 3 % a month: 1000 · 0.03 / (1 − 1.03^−6) = 184.5975…
    const example = representativeExample({ principal: 1000, months: 6, aprPercent: 36, feePercent: 5 });
    expect(example.monthlyPaymentCents).toBe(18460);
    expect(example.totalPaidCents).toBe(110760);
    expect(example.interestCents).toBe(10760);
    expect(example.feeCents).toBe(5000);
  });
});

describe('formatUsd', () => {
  it('formats cents as dollars with separators', () => {
    expect(formatUsd(0)).toBe('$0.00');
    expect(formatUsd(50)).toBe('$0.50');
    expect(formatUsd(250000)).toBe('$2,500.00');
  });

  it('rounds half up to whole dollars when asked', () => {
    expect(formatUsd(263750, { wholeDollars: true })).toBe('$2,638');
    expect(formatUsd(263749, { wholeDollars: true })).toBe('$2,637');
  });
});
