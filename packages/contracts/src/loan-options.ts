/**
 * The landing form's option lists (docs/product-rules.md §loan-amounts, spec §9) and the option helpers every list
 * uses, in a module without zod: the first screen shows these lists before it needs any schema. `options.ts`
 * re-exports all of it beside the schemas.
 */
/** One choice of a select or radio group. */
export interface Option<V extends string | number = string | number> {
  readonly value: V;
  readonly label: string;
}

type ValuesOf<T extends readonly Option[]> = { readonly [K in keyof T]: T[K]['value'] };

/** The values of an option list, keeping the tuple type so `z.enum` / `z.literal` see each literal. */
export function valuesOf<const T extends readonly Option[]>(options: T): ValuesOf<T> {
  return options.map((option) => option.value) as unknown as ValuesOf<T>;
}

/** The label shown for `value`, or `undefined` when `value` is not on the list. */
export function labelFor<V extends string | number>(
  options: readonly Option<V>[],
  value: V,
): string | undefined {
  return options.find((option) => option.value === value)?.label;
}

// Loan amount.

/** docs/product-rules.md §loan-amounts: $100–$900 by $100, then $1,000–$5,000 by $1,000. */
export const LOAN_AMOUNTS = [
  { value: 100, label: '$100' },
  { value: 200, label: '$200' },
  { value: 300, label: '$300' },
  { value: 400, label: '$400' },
  { value: 500, label: '$500' },
  { value: 600, label: '$600' },
  { value: 700, label: '$700' },
  { value: 800, label: '$800' },
  { value: 900, label: '$900' },
  { value: 1000, label: '$1,000' },
  { value: 2000, label: '$2,000' },
  { value: 3000, label: '$3,000' },
  { value: 4000, label: '$4,000' },
  { value: 5000, label: '$5,000' },
] as const satisfies readonly Option<number>[];
export const LOAN_AMOUNT_VALUES = valuesOf(LOAN_AMOUNTS);
/** A loan amount in whole dollars, one of `LOAN_AMOUNTS`. */
export type LoanAmount = (typeof LOAN_AMOUNT_VALUES)[number];
/** docs/product-rules.md §loan-amounts settles the spec's two readings on $500. */
export const DEFAULT_LOAN_AMOUNT = 500 satisfies LoanAmount;

// Loan reason.

export const LOAN_REASONS = [
  { value: 'AUTO_PURCHASE', label: 'Auto Purchase' },
  { value: 'AUTO_REPAIR', label: 'Auto Repair' },
  { value: 'HOME_IMPROVEMENT', label: 'Home Improvement' },
  { value: 'DEBT_CONSOLIDATION', label: 'Debt Consolidation' },
  { value: 'DEBT_SETTLEMENT', label: 'Debt Settlement' },
  { value: 'CREDIT_CARD_CONSOLIDATION', label: 'Credit Card Consolidation' },
  { value: 'BUSINESS', label: 'Small Business' },
  { value: 'RENT_OR_MORTGAGE', label: 'Rent or Mortgage' },
  { value: 'MEDICAL', label: 'Medical Expenses' },
  { value: 'MOVING', label: 'Moving' },
  { value: 'EMERGENCY_SITUATION', label: 'Emergency Situation' },
  { value: 'EDUCATION', label: 'Education' },
  // The misspelling is the value the lender network knows; do not correct it.
  { value: 'RENEWABLE_ENGERGY', label: 'Renewable Energy' },
  { value: 'STUDENT_LOAN_REFINANCE', label: 'Student Loan Refinance' },
  { value: 'TAXES', label: 'Taxes' },
  { value: 'OTHER', label: 'Other' },
] as const satisfies readonly Option<string>[];
export const LOAN_REASON_VALUES = valuesOf(LOAN_REASONS);
export type LoanReason = (typeof LOAN_REASON_VALUES)[number];
export const DEFAULT_LOAN_REASON = 'DEBT_CONSOLIDATION' satisfies LoanReason;
