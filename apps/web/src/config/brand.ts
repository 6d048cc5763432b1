/**
 * Everything that names the business behind the site, in one place: an operator rebrands the site by editing
 * this file (and dropping a logo into `public/`), never a component. How to reach the business (contact details,
 * blog, social profiles) is deployment configuration instead: the BFF's `BRAND_*` settings, read through
 * `/api/v1/config` (`lib/brand-links.ts`), so a build never ships placeholder contact details as real ones.
 */

/** A seal on the landing page. Show only seals the business really holds. */
export interface TrustSeal {
  kind: 'ssl' | 'certificate-authority' | 'lenders-alliance';
  title: string;
  detail: string;
}

export interface BrandConfig {
  /** The name the site shows in its header, footer, page titles and copy. */
  name: string;
  /** The company that operates the site, as named in the legal pages and the copyright line. */
  legalName: string;
  /** Whose laws govern the Terms of Use, as the sentence reads: 'the State of Delaware'. */
  governingLaw: string;
  /**
   * A logo file served by the app (put it in `public/`, e.g. '/brand/logo.svg'), replacing the built-in mark and
   * name. It must contain the brand name, which is used as its text alternative.
   */
  logoSrc?: string;
  /** Whether the footer carries the not-a-lender disclaimer paragraph. */
  footerDisclaimer: boolean;
  trustSeals: readonly TrustSeal[];
}

export const BRAND: BrandConfig = {
  name: 'LoanBridge',
  legalName: 'LoanBridge Online Services LLC',
  governingLaw: 'the State of Delaware',
  footerDisclaimer: true,
  trustSeals: [
    { kind: 'ssl', title: 'SSL secured', detail: '256-bit encrypted connection' },
    {
      kind: 'certificate-authority',
      title: 'Verified site',
      detail: 'Identity checked by a certificate authority',
    },
    { kind: 'lenders-alliance', title: 'Online Lenders Alliance', detail: 'Member, committed to its code' },
  ],
};

/** The brand name on its own, for the many places that need only that. */
export const BRAND_NAME = BRAND.name;
