/** The name the site shows in its header, footer and copyright line. */
export const BRAND_NAME = 'LoanBridge';
