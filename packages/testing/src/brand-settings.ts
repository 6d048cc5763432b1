/**
 * Fictitious brand contact settings for the BFF run as in production (the fault suite, the benchmarks): production
 * refuses to start without them (issue 25). Addresses under `.example`, a number reserved for fiction.
 */
export const FICTITIOUS_BRAND_SETTINGS = {
  BRAND_CONTACT_EMAIL: 'support@loanbridge.example',
  BRAND_CONTACT_PHONE: '(800) 555-0142',
  BRAND_CONTACT_HOURS: 'Monday to Friday, 9 a.m. to 6 p.m. Eastern Time',
  BRAND_MAILING_ADDRESS: 'LoanBridge Online Services LLC|100 Example Plaza, Suite 400|Wilmington, DE 19801',
} as const;
