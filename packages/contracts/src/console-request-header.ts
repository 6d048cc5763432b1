/**
 * The header the web app sends with every API request (any value). A page of another origin cannot add it
 * without a CORS preflight the API never grants, so a cookie-signed state change to the operator API must carry
 * it or be JSON (docs/adr/0025). Free of zod: the borrower's first screen loads it.
 */
export const CONSOLE_REQUEST_HEADER = 'x-requested-with';
