/**
 * The address to send the browser to, if it is a web address. Redirect addresses come from the lender network,
 * so anything else (a `javascript:` URL above all) is never followed.
 */
export function safeRedirectUrl(address: string | undefined): string | undefined {
  if (!address) return undefined;
  try {
    const url = new URL(address);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}
