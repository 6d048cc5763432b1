/**
 * Where a yes to the first cross-sell question (card offers) takes the visitor, in a new tab. Set per deployment
 * with `VITE_CARD_OFFERS_URL` at build time; the default is a neutral, public guide to choosing a credit card.
 */
export const CARD_OFFERS_URL: string =
  import.meta.env.VITE_CARD_OFFERS_URL || 'https://www.consumerfinance.gov/consumer-tools/credit-cards/';
