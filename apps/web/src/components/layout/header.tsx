import { Suspense, lazy, useEffect, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { Link, useLocation } from 'react-router';
import { HOW_IT_WORKS_SECTION_ID, HowItWorksSteps } from '@/components/content/how-it-works-steps';
import { RatesAndFees } from '@/components/content/rates-and-fees';
import { Dialog } from '@/components/ui/dialog';
import { PageLoader } from '@/components/ui/page-loader';
import { BRAND } from '@/config/brand';
import { useBrandLinks } from '@/lib/brand-links';
import { Logo } from './logo';
import styles from './header.module.css';

// The FAQ text is read by few visitors and only after a click: it loads with the dialog, not with every page.
const FaqList = lazy(() =>
  import('@/components/content/faq-list').then(({ FaqList }) => ({ default: FaqList })),
);

type Popup = 'how-it-works' | 'rates-and-fees' | 'faqs';

/** The landing route: there How it works scrolls to the page's own section instead of opening a popup. */
const LANDING_PATH = '/start';
/** The route whose header gets the celebratory style (spec §2). */
const CELEBRATION_PATH = '/congratulations';

/** A menu item that is a button; `opensDialog` when it opens a popup rather than scrolling the page. */
function NavButton({
  opensDialog,
  onClick,
  children,
}: {
  opensDialog: boolean;
  onClick: () => void;
  children: ReactNode;
}) {
  return (
    <li>
      <button
        type="button"
        className={styles.navItem}
        aria-haspopup={opensDialog ? 'dialog' : undefined}
        onClick={onClick}
      >
        {children}
      </button>
    </li>
  );
}

function prefersReducedMotion(): boolean {
  return window.matchMedia('(prefers-reduced-motion: reduce)').matches;
}

/**
 * The site header (spec §2): the logo home; Blog (wide screens only, when the brand has one), How it works,
 * Rates & Fees and FAQs, behind a menu toggle below 768 px. How it works scrolls to its section on the landing
 * page and opens a popup elsewhere; the popups close on their close button, Esc and a click outside.
 */
export function Header() {
  const { pathname } = useLocation();
  const [menuOpen, setMenuOpen] = useState(false);
  const blogUrl = useBrandLinks()?.blogUrl;
  const [popup, setPopup] = useState<Popup | null>(null);
  const [shownPath, setShownPath] = useState(pathname);
  const headerRef = useRef<HTMLElement>(null);
  const toggleRef = useRef<HTMLButtonElement>(null);
  // Where focus goes back when a popup closes: the menu toggle when the popup came from the mobile menu (its
  // items are hidden by then), otherwise the link that opened it (the dialog's default).
  const popupReturnRef = useRef<HTMLElement | null>(null);

  // A new page starts with the menu and any popup closed (a link inside a popup navigates).
  if (shownPath !== pathname) {
    setShownPath(pathname);
    setMenuOpen(false);
    setPopup(null);
  }

  useEffect(() => {
    if (!menuOpen) return;
    function closeOnOutsidePress(event: PointerEvent) {
      if (event.target instanceof Node && !headerRef.current?.contains(event.target)) setMenuOpen(false);
    }
    document.addEventListener('pointerdown', closeOnOutsidePress);
    return () => document.removeEventListener('pointerdown', closeOnOutsidePress);
  }, [menuOpen]);

  function openPopup(id: Popup) {
    const toggle = toggleRef.current;
    popupReturnRef.current = menuOpen && toggle && toggle.offsetParent !== null ? toggle : null;
    setMenuOpen(false);
    setPopup(id);
  }

  function showHowItWorks() {
    const section = pathname === LANDING_PATH ? document.getElementById(HOW_IT_WORKS_SECTION_ID) : null;
    if (!section) {
      openPopup('how-it-works');
      return;
    }
    setMenuOpen(false);
    section.scrollIntoView({ behavior: prefersReducedMotion() ? 'auto' : 'smooth', block: 'start' });
    // The section takes focus (it has tabindex -1), so keyboard and screen-reader users land where they looked.
    section.focus({ preventScroll: true });
  }

  function closeMenuOnEscape(event: KeyboardEvent<HTMLElement>) {
    if (event.key === 'Escape' && menuOpen) {
      setMenuOpen(false);
      toggleRef.current?.focus();
    }
  }

  const popupProps = (id: Popup) => ({
    open: popup === id,
    onClose: () => setPopup(null),
  });

  return (
    <header
      ref={headerRef}
      className={styles.header}
      data-variant={pathname === CELEBRATION_PATH ? 'celebration' : undefined}
      onKeyDown={closeMenuOnEscape}
    >
      <div className={`container ${styles.bar}`}>
        <Link to="/" className={styles.logoLink} aria-label={`${BRAND.name} home`}>
          <Logo inverted={pathname === CELEBRATION_PATH} />
        </Link>
        <button
          ref={toggleRef}
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
            {blogUrl && (
              <li className={styles.wideOnly}>
                <a href={blogUrl} className={styles.navItem} target="_blank" rel="noopener noreferrer">
                  Blog<span className="visually-hidden"> (opens in a new tab)</span>
                </a>
              </li>
            )}
            <NavButton opensDialog={pathname !== LANDING_PATH} onClick={showHowItWorks}>
              How it works
            </NavButton>
            <NavButton opensDialog onClick={() => openPopup('rates-and-fees')}>
              Rates &amp; Fees
            </NavButton>
            <NavButton opensDialog onClick={() => openPopup('faqs')}>
              FAQs
            </NavButton>
          </ul>
        </nav>
      </div>
      <Dialog {...popupProps('how-it-works')} finalFocusRef={popupReturnRef} title="How it works">
        <HowItWorksSteps />
      </Dialog>
      <Dialog
        {...popupProps('rates-and-fees')}
        finalFocusRef={popupReturnRef}
        title="Rates & Fees"
        size="large"
      >
        <RatesAndFees />
      </Dialog>
      <Dialog
        {...popupProps('faqs')}
        finalFocusRef={popupReturnRef}
        title="Frequently asked questions"
        size="large"
      >
        <Suspense fallback={<PageLoader />}>
          <FaqList />
        </Suspense>
        <p>
          Still have a question? <Link to="/contact-us">Contact us</Link>.
        </p>
      </Dialog>
    </header>
  );
}
