/** Route patterns of the sandbox's own lender pages, where its sold and reject addresses lead. */
export const LENDER_PAGE_ROUTES = {
  offer: '/lender/offer/:leadId',
  declined: '/lender/declined/:leadId',
} as const;

/** The sold redirect: the page a browser test asserts the borrower "arrived at the lender" on. */
export function offerAddress(publicUrl: string, networkLeadId: string): string {
  return `${publicUrl}/lender/offer/${encodeURIComponent(networkLeadId)}`;
}

/** The reject address, handed out as `rejectUrl` when the configuration asks for one. */
export function declinedAddress(publicUrl: string, networkLeadId: string): string {
  return `${publicUrl}/lender/declined/${encodeURIComponent(networkLeadId)}`;
}
