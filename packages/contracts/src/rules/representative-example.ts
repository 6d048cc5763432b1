/** Terms of a loan for the representative-example disclosure. */
export interface LoanTerms {
  /** Amount borrowed, in dollars. */
  principal: number;
  /** Number of monthly payments. */
  months: number;
  /** Annual percentage rate, in percent (10 means 10 %). */
  aprPercent: number;
  /** Origination fee as a percentage of the principal. */
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
}

/**
 * The representative example of spec §1, by standard amortisation: payment = P·r / (1 − (1 + r)^−n) with
 * r = APR / 12. The payment is rounded to the cent first, and the totals are built from the rounded payment,
 * because that is what the borrower actually pays each month. $2,500 over 12 months at 10 % APR with a 3 % fee
 * gives $219.79 a month, $2,637.48 repaid ("total $2,637" in whole dollars), $137.48 interest and a $75 fee.
 */
export function representativeExample({
  principal,
  months,
  aprPercent,
  feePercent,
}: LoanTerms): RepresentativeExample {
  const monthlyRate = aprPercent / 100 / 12;
  const payment =
    monthlyRate === 0 ? principal / months : (principal * monthlyRate) / (1 - (1 + monthlyRate) ** -months);
  const principalCents = Math.round(principal * 100);
  const monthlyPaymentCents = Math.round(payment * 100);
  const totalPaidCents = monthlyPaymentCents * months;
  return {
    monthlyPaymentCents,
    totalPaidCents,
    interestCents: totalPaidCents - principalCents,
    feeCents: Math.round((principalCents * feePercent) / 100),
  };
}

const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });
const usdWhole = new Intl.NumberFormat('en-US', {
  style: 'currency',
  currency: 'USD',
  minimumFractionDigits: 0,
  maximumFractionDigits: 0,
});

/**
 * Formats cents as US dollars: 21979 → '$219.79'. With `wholeDollars`, rounds half up to the dollar as the
 * spec prints totals: 263748 → '$2,637'.
 */
export function formatUsd(cents: number, { wholeDollars = false }: { wholeDollars?: boolean } = {}): string {
  return (wholeDollars ? usdWhole : usd).format(cents / 100);
}
