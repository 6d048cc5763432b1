/** Terms of a loan for the representative-example disclosure. */
export interface LoanTerms {
  /** Amount borrowed, in dollars. */
  principal: number;
  /** Number of monthly payments. */
  months: number;
  /** The loan's nominal yearly interest rate, in percent (10 means 10 %): interest only, the fee not included. */
  interestRatePercent: number;
  /** Origination fee as a percentage of the principal, withheld from the amount paid out. */
  feePercent: number;
}

/** What the borrower pays, in whole cents. */
export interface RepresentativeExample {
  /** Level monthly payment, rounded to the cent. */
  monthlyPaymentCents: number;
  /** `months` payments of `monthlyPaymentCents`: what is repaid, the fee not included. */
  totalPaidCents: number;
  /** `totalPaidCents` minus the principal. */
  interestCents: number;
  /** Origination fee; withheld from the amount paid out, so it is not part of `totalPaidCents`. */
  feeCents: number;
  /**
   * The annual percentage rate, interest and fee included (Regulation Z's actuarial method for level monthly
   * payments): the yearly rate at which the payments are worth the amount paid out (principal minus fee).
   */
  aprPercent: number;
}

/**
 * The representative example of spec §1, by standard amortisation: payment = P·r / (1 − (1 + r)^−n) with
 * r = rate / 12. The payment is rounded to the cent first, and the totals are built from the rounded payment,
 * because that is what the borrower actually pays each month. $2,500 over 12 months at a 10 % interest rate with
 * a 3 % fee gives $219.79 a month, $2,637.48 repaid ("total $2,637" in whole dollars), $137.48 interest and a
 * $75 fee; with the fee the APR is 15.8 % (issue 25: "10 % APR with a 3 % fee" contradicted itself).
 */
export function representativeExample({
  principal,
  months,
  interestRatePercent,
  feePercent,
}: LoanTerms): RepresentativeExample {
  const monthlyRate = interestRatePercent / 100 / 12;
  const payment =
    monthlyRate === 0 ? principal / months : (principal * monthlyRate) / (1 - (1 + monthlyRate) ** -months);
  const principalCents = Math.round(principal * 100);
  const monthlyPaymentCents = Math.round(payment * 100);
  const totalPaidCents = monthlyPaymentCents * months;
  const feeCents = Math.round((principalCents * feePercent) / 100);
  return {
    monthlyPaymentCents,
    totalPaidCents,
    interestCents: totalPaidCents - principalCents,
    feeCents,
    aprPercent: annualPercentageRate(principalCents - feeCents, monthlyPaymentCents, months),
  };
}

/**
 * The APR, in percent, of `months` level monthly payments of `paymentCents` for `amountPaidOutCents` received:
 * 12 × the monthly rate i solving amountPaidOut = payment · (1 − (1 + i)^−n) / i, by Newton's method from the
 * simple-interest guess (the present value falls steadily as i rises, so it converges in a few steps).
 */
export function annualPercentageRate(
  amountPaidOutCents: number,
  paymentCents: number,
  months: number,
): number {
  if (paymentCents * months <= amountPaidOutCents) return 0;
  const presentValue = (i: number) => (paymentCents * (1 - (1 + i) ** -months)) / i;
  // d/di of the present value.
  const slope = (i: number) =>
    paymentCents * ((months * (1 + i) ** (-months - 1)) / i - (1 - (1 + i) ** -months) / i ** 2);
  let rate = (2 * (paymentCents * months - amountPaidOutCents)) / (amountPaidOutCents * (months + 1));
  for (let step = 0; step < 50; step += 1) {
    const next = rate - (presentValue(rate) - amountPaidOutCents) / slope(rate);
    if (Math.abs(next - rate) < 1e-12) return next * 12 * 100;
    rate = next;
  }
  return rate * 12 * 100;
}

/** An APR as disclosures print it: one decimal, '15.8%'. */
export function formatApr(aprPercent: number): string {
  return `${(Math.round(aprPercent * 10) / 10).toFixed(1)}%`;
}

/**
 * Formats cents as US dollars: 21979 → '$219.79'. With `wholeDollars`, rounds half up to the dollar as the
 * spec prints totals: 263748 → '$2,637'. The same text as `Intl.NumberFormat('en-US', { style: 'currency' })`,
 * written out: the first currency formatter a page makes loads the browser's number-format data, tens of
 * milliseconds of main thread on a phone, and the Rates & Fees wording on every first screen needs it while the
 * page hydrates (docs/adr/0019-html-first-borrower-screens.md).
 */
export function formatUsd(cents: number, { wholeDollars = false }: { wholeDollars?: boolean } = {}): string {
  const sign = cents < 0 ? '-' : '';
  const rounded = wholeDollars ? Math.round(Math.abs(cents) / 100) * 100 : Math.round(Math.abs(cents));
  const dollars = String(Math.floor(rounded / 100)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  if (wholeDollars) return `${sign}$${dollars}`;
  return `${sign}$${dollars}.${String(rounded % 100).padStart(2, '0')}`;
}
