import { BRAND } from '@/config/brand';

/**
 * What the site must say about lenders wherever it asks for or talks about a loan (spec §1 "lender disclaimer"):
 * we are not a lender, we do not decide, and an offer is never guaranteed or binding. One text for the footer,
 * the landing page and the Disclaimer page.
 */
export function LenderDisclaimer({ className }: { className?: string }) {
  return (
    <p className={className}>
      {BRAND.name} is not a lender, does not make loans or credit decisions and is not an agent of any lender.
      We pass the details you submit to lenders and partners in our network, who decide for themselves whether
      to make you an offer and on what terms. Submitting a request does not guarantee an offer, not every
      lender can lend up to $5,000, an offer may be for less than you asked, and the time it takes to receive
      funds differs from lender to lender. Our service is free, is not available in every state, and you are
      never obliged to accept an offer.
    </p>
  );
}
