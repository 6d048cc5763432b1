import { Link } from 'react-router';
import { BRAND_NAME } from '@/config/brand';
import { Logo } from './logo';
import styles from './footer.module.css';

const LEGAL_LINKS = [
  { to: '/', label: 'Home Page' },
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

/** The site footer: the not-a-lender disclaimer, the legal links and the copyright line with the current year. */
export function Footer() {
  const year = new Date().getFullYear();
  return (
    <footer className={styles.footer}>
      <div className="container">
        <div className={styles.top}>
          <Logo inverted />
          <nav aria-label="Legal">
            <ul className={styles.links}>
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
        <p className={styles.disclaimer}>
          {BRAND_NAME} is not a lender and does not make credit decisions. We pass the information you give us
          to lenders and partners in our network, who decide whether to make you an offer. Not all applicants
          are approved, and approved amounts may be lower than requested. Our service is free and you are
          never obliged to accept an offer.
        </p>
        <p className={styles.copyright}>
          © {year} {BRAND_NAME}. All rights reserved.
        </p>
      </div>
    </footer>
  );
}
