import { Link, useLocation } from 'react-router';
import { LenderDisclaimer } from '@/components/content/lender-disclaimer';
import { BRAND } from '@/config/brand';
import { Logo } from './logo';
import { PrivacySignalNotice } from './privacy-signal-notice';
import { SocialLinks } from './social-links';
import styles from './footer.module.css';

/** Pages that carry the lender disclaimer in their own content; the footer does not repeat it there. */
const PAGES_WITH_DISCLAIMER: readonly string[] = ['/start', '/disclaimer'];

const LEGAL_LINKS = [
  { to: '/terms-of-use', label: 'Terms of Use' },
  { to: '/privacy', label: 'Privacy Policy' },
  { to: '/disclaimer', label: 'Disclaimer' },
  { to: '/credit-authorization-agreement', label: 'Credit Authorization Agreement' },
  { to: '/partners', label: 'Partners' },
  { to: '/frequently-asked-questions', label: 'FAQ' },
  { to: '/contact-us', label: 'Contact Us' },
  { to: '/unsubscribe', label: 'Unsubscribe' },
  { to: '/do-not-sell-information', label: 'Do Not Sell My Information' },
] as const;

/**
 * The site footer (spec §2): the not-a-lender disclaimer when the brand configuration asks for it and the page
 * does not show it already, the logo and social links, the Home Page and legal links, and the copyright line
 * with the current year (docs/product-rules.md §site-content).
 */
export function Footer() {
  const { pathname } = useLocation();
  const year = new Date().getFullYear();
  const showDisclaimer = BRAND.footerDisclaimer && !PAGES_WITH_DISCLAIMER.includes(pathname);
  return (
    <footer className={styles.footer}>
      <div className="container">
        {showDisclaimer && <LenderDisclaimer className={styles.disclaimer} />}
        <div className={styles.main}>
          <div className={styles.brand}>
            <Logo inverted />
            <SocialLinks />
          </div>
          <nav aria-label="Footer">
            <ul className={styles.links}>
              <li>
                <Link to="/" className={styles.link}>
                  Home Page
                </Link>
              </li>
              {LEGAL_LINKS.map((link) => (
                <li key={link.to}>
                  <Link to={link.to} className={styles.link}>
                    {link.label}
                  </Link>
                </li>
              ))}
            </ul>
          </nav>
        </div>
        <PrivacySignalNotice className={styles.signal} />
        <p className={styles.copyright}>
          © {year} {BRAND.legalName}. All rights reserved.
        </p>
      </div>
    </footer>
  );
}
