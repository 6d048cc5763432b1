import { useState, type KeyboardEvent } from 'react';
import { Link } from 'react-router';
import { FaqList } from '@/components/content/faq-list';
import { HowItWorksSteps } from '@/components/content/how-it-works-steps';
import { RatesAndFees } from '@/components/content/rates-and-fees';
import { Dialog } from '@/components/ui/dialog';
import { BRAND_NAME } from '@/config/brand';
import { Logo } from './logo';
import styles from './header.module.css';

type Popup = 'how-it-works' | 'rates-and-fees' | 'faqs';

const POPUPS: readonly { id: Popup; label: string }[] = [
  { id: 'how-it-works', label: 'How it works' },
  { id: 'rates-and-fees', label: 'Rates & Fees' },
  { id: 'faqs', label: 'FAQs' },
];

/** The site header: logo home, and How it works, Rates & Fees and FAQs as popups (a menu below 768 px). */
export function Header() {
  const [menuOpen, setMenuOpen] = useState(false);
  const [popup, setPopup] = useState<Popup | null>(null);

  function openPopup(id: Popup) {
    setMenuOpen(false);
    setPopup(id);
  }

  function closeMenuOnEscape(event: KeyboardEvent<HTMLElement>) {
    if (event.key === 'Escape' && menuOpen) {
      setMenuOpen(false);
      document.getElementById('site-menu-toggle')?.focus();
    }
  }

  return (
    <header className={styles.header} onKeyDown={closeMenuOnEscape}>
      <div className={`container ${styles.bar}`}>
        <Link to="/" className={styles.logoLink} aria-label={`${BRAND_NAME} home`}>
          <Logo />
        </Link>
        <button
          id="site-menu-toggle"
          type="button"
          className={styles.menuToggle}
          aria-expanded={menuOpen}
          aria-controls="site-menu"
          onClick={() => setMenuOpen((open) => !open)}
        >
          <svg viewBox="0 0 24 24" width="24" height="24" aria-hidden="true">
            {menuOpen ? (
              <path d="M6 6l12 12M18 6L6 18" stroke="currentColor" strokeWidth="2.2" strokeLinecap="round" />
            ) : (
              <path
                d="M4 7h16M4 12h16M4 17h16"
                stroke="currentColor"
                strokeWidth="2.2"
                strokeLinecap="round"
              />
            )}
          </svg>
          <span>Menu</span>
        </button>
        <nav id="site-menu" aria-label="Main" className={styles.nav} data-open={menuOpen || undefined}>
          <ul className={styles.links}>
            {POPUPS.map((item) => (
              <li key={item.id}>
                <button type="button" className={styles.navButton} onClick={() => openPopup(item.id)}>
                  {item.label}
                </button>
              </li>
            ))}
          </ul>
        </nav>
      </div>
      <Dialog open={popup === 'how-it-works'} title="How it works" onClose={() => setPopup(null)}>
        <HowItWorksSteps />
      </Dialog>
      <Dialog
        open={popup === 'rates-and-fees'}
        title="Rates & Fees"
        onClose={() => setPopup(null)}
        size="large"
      >
        <RatesAndFees />
      </Dialog>
      <Dialog
        open={popup === 'faqs'}
        title="Frequently asked questions"
        onClose={() => setPopup(null)}
        size="large"
      >
        <FaqList />
      </Dialog>
    </header>
  );
}
