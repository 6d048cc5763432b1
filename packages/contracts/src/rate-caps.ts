import type { US_STATE_CODES } from './options.js';

type StateCode = (typeof US_STATE_CODES)[number];

/** A state's cap on the APR of a consumer loan by a licensed non-bank lender, and the law that sets it. */
export interface StateRateCap {
  /** The highest APR, in percent, the state allows a loan of $100–$5,000 to carry. */
  maxApr: number;
  /** The statute (or constitution) that sets it. */
  law: string;
}

/**
 * The states whose cap holds one figure across the funnel's whole loan range ($100–$5,000), so a lender whose
 * loans carry more may not lend to their residents (issue 41). A state whose cap depends on the amount or is
 * tiered by balance (Maryland, North Carolina, Vermont, Arizona and others) is not listed yet: for those the
 * buyer's own `states` filter decides. docs/state-rate-caps.md holds the same table with its sources, and a test
 * keeps the two equal; counsel reviews both before an operator relies on them.
 */
export const STATE_RATE_CAPS: Partial<Record<StateCode, StateRateCap>> = {
  AR: { maxApr: 17, law: 'Ark. Const. amend. 89 § 3' },
  DC: { maxApr: 24, law: 'D.C. Code § 28-3301' },
  IL: { maxApr: 36, law: 'Predatory Loan Prevention Act, 815 ILCS 123/15-5-5' },
  MT: { maxApr: 36, law: 'Mont. Code Ann. § 32-5-193' },
  NJ: { maxApr: 30, law: 'N.J. Stat. § 2C:21-19' },
  NM: { maxApr: 36, law: 'N.M. Stat. § 58-15-17 (HB 132, 2023)' },
  NY: { maxApr: 25, law: 'N.Y. Penal Law § 190.40' },
  SD: { maxApr: 36, law: 'S.D. Codified Laws § 54-4-44' },
};

/**
 * Whether a lender whose loans carry up to `maxApr` % may be offered a borrower in `state`: yes when the state
 * sets no cap this table knows, or the lender stays within it.
 */
export function withinRateCap(state: unknown, maxApr: number): boolean {
  const cap = STATE_RATE_CAPS[state as StateCode];
  return cap === undefined || maxApr <= cap.maxApr;
}
