import { describe, expect, it } from 'vitest';
import { formatApr, formatUsd, representativeExample } from './representative-example.js';

/**
 * An APR worked out independently of the module: the monthly rate by bisection on the sum of each payment
 * discounted month by month (no closed form), times 12.
 */
function aprByBisection(amountPaidOut: number, payment: number, months: number): number {
  const worth = (monthly: number) => {
    let total = 0;
    for (let month = 1; month <= months; month += 1) total += payment / (1 + monthly) ** month;
    return total;
  };
  let low = 0;
  let high = 1;
  for (let step = 0; step < 200; step += 1) {
    const middle = (low + high) / 2;
    if (worth(middle) > amountPaidOut) low = middle;
    else high = middle;
  }
  return ((low + high) / 2) * 12 * 100;
}

describe('representativeExample', () => {
  it('reproduces spec §1: $2,500, 12 months, 10 % APR, 3 % fee', () => {
    const example = representativeExample({
      principal: 2500,
      months: 12,
      interestRatePercent: 10,
      feePercent: 3,
    });
    expect(example).toMatchObject({
      monthlyPaymentCents: 21979,
      totalPaidCents: 263748,
      interestCents: 13748,
      feeCents: 7500,
    });
    expect(formatUsd(example.monthlyPaymentCents)).toBe('$219.79');
    expect(formatUsd(example.totalPaidCents, { wholeDollars: true })).toBe('$2,637');
    expect(formatUsd(example.interestCents)).toBe('$137.48');
  });

  it('gives the APR with the fee: $2,425 paid out against 12 payments of $219.79 is 15.8 % (issue 25)', () => {
    const example = representativeExample({
      principal: 2500,
      months: 12,
      interestRatePercent: 10,
      feePercent: 3,
    });
    expect(example.aprPercent).toBeCloseTo(aprByBisection(2425, 219.79, 12), 6);
    expect(formatApr(example.aprPercent)).toBe('15.8%');
    // Without a fee the APR is the interest rate itself.
    const noFee = representativeExample({
      principal: 2500,
      months: 12,
      interestRatePercent: 10,
      feePercent: 0,
    });
    expect(noFee.aprPercent).toBeCloseTo(aprByBisection(2500, noFee.monthlyPaymentCents / 100, 12), 6);
    expect(noFee.aprPercent).toBeCloseTo(10, 1);
  });

  it('agrees with the independent solve over a spread of loans', () => {
    for (const [principal, months, rate, fee] of [
      [1000, 6, 36, 5],
      [5000, 36, 24.99, 8],
      [300, 3, 99, 10],
      [2500, 24, 5, 1],
    ] as const) {
      const example = representativeExample({
        principal,
        months,
        interestRatePercent: rate,
        feePercent: fee,
      });
      const paidOut = (principal * 100 - example.feeCents) / 100;
      expect(example.aprPercent, `${principal} ${months} ${rate} ${fee}`).toBeCloseTo(
        aprByBisection(paidOut, example.monthlyPaymentCents / 100, months),
        6,
      );
    }
  });

  it('splits the principal evenly at 0 % APR', () => {
    expect(
      representativeExample({ principal: 1200, months: 12, interestRatePercent: 0, feePercent: 0 }),
    ).toEqual({
      monthlyPaymentCents: 10000,
      totalPaidCents: 120000,
      interestCents: 0,
      feeCents: 0,
      aprPercent: 0,
    });
  });

  it('matches a second worked amortisation: $1,000, 6 months, 36 % APR', () => {
    // r = 3 % a month: 1000 · 0.03 / (1 − 1.03^−6) = 184.5975…
    const example = representativeExample({
      principal: 1000,
      months: 6,
      interestRatePercent: 36,
      feePercent: 5,
    });
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

  it("writes what the browser's en-US currency format writes", () => {
    const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });
    const usdWhole = new Intl.NumberFormat('en-US', {
      style: 'currency',
      currency: 'USD',
      maximumFractionDigits: 0,
    });
    const samples = [
      0, 1, 9, 99, 100, 149, 150, 999, 99_999, 100_000, 123_456_789, 50_000_050, -1, -150, -123_456,
    ];
    for (let cents = 0; cents < 300_000; cents += 7_919) samples.push(cents);
    for (const cents of samples) {
      expect(formatUsd(cents)).toBe(usd.format(cents / 100));
      expect(formatUsd(cents, { wholeDollars: true })).toBe(usdWhole.format(Math.round(cents) / 100));
    }
  });
});
