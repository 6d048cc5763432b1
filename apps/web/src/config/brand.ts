/**
 * Everything that names or reaches the business behind the site, in one place: an operator rebrands the site by
 * editing this file (and dropping a logo into `public/`), never a component. The values below are placeholders:
 * addresses under `.example` (RFC 2606) and a phone number from the 555-01xx range reserved for fiction.
 */

/** The social networks the footer has an icon for. */
export type SocialNetwork = 'facebook' | 'x' | 'instagram' | 'linkedin' | 'youtube';

export interface SocialLink {
  network: SocialNetwork;
  /** The profile's address; opens in a new tab. */
  url: string;
}

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
  contact: {
    email: string;
    /** The address privacy requests and questions about personal data go to. */
    privacyEmail: string;
    /** As people read it. */
    phone: string;
    /** For the tel: link, E.164. */
    phoneE164: string;
    hours: string;
    /** The postal address, one line per entry. */
    mailingAddress: readonly string[];
  };
  /** The blog, linked from the header on wide screens; leave it out to hide the link. */
  blogUrl?: string;
  social: readonly SocialLink[];
  /** Whether the footer carries the not-a-lender disclaimer paragraph. */
  footerDisclaimer: boolean;
  trustSeals: readonly TrustSeal[];
}

export const BRAND: BrandConfig = {
  name: 'LoanBridge',
  legalName: 'LoanBridge Online Services LLC',
  governingLaw: 'the State of Delaware',
  contact: {
    email: 'support@loanbridge.example',
    privacyEmail: 'privacy@loanbridge.example',
    phone: '(800) 555-0142',
    phoneE164: '+18005550142',
    hours: 'Monday to Friday, 9 a.m. to 6 p.m. Eastern Time',
    mailingAddress: [
      'LoanBridge Online Services LLC',
      '100 Example Plaza, Suite 400',
      'Wilmington, DE 19801',
    ],
  },
  blogUrl: 'https://blog.loanbridge.example/',
  social: [
    { network: 'facebook', url: 'https://facebook.example/loanbridge' },
    { network: 'x', url: 'https://x.example/loanbridge' },
    { network: 'instagram', url: 'https://instagram.example/loanbridge' },
    { network: 'linkedin', url: 'https://linkedin.example/company/loanbridge' },
  ],
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
