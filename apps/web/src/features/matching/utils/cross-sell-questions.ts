import type { CrossSellQuestion } from '@funnel/contracts/cross-sell';

export interface CrossSellCard {
  question: string;
  /** One line under the question saying what a yes leads to. */
  detail: string;
}

/** What each cross-sell card asks (spec §2: Q1 card offers, Q2 15k+ debt, Q3 auto insurance, Q4 credit score). */
export const CROSS_SELL_CARDS: Record<CrossSellQuestion, CrossSellCard> = {
  'card-offers': {
    question: 'Would you like to see credit card options for your credit profile?',
    detail: 'Yes opens the card options in a new tab, so this window keeps working for you.',
  },
  'credit-card-debt': {
    question: 'Do you have more than $15,000 in credit card debt?',
    detail: 'A debt relief partner may be able to lower what you pay each month.',
  },
  'auto-insurance': {
    question: 'Would you like to compare auto insurance quotes?',
    detail: 'Drivers who compare quotes often pay less for the same cover.',
  },
  'credit-score': {
    question: 'Would you like to check your credit score for free?',
    detail: 'Checking your own score does not affect it.',
  },
};
