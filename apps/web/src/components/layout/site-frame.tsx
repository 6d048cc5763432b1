import type { ReactNode } from 'react';
import { Footer } from './footer';
import { Header } from './header';

/** Header, the page's main content and footer, with a skip link to the content for keyboard users. */
export function SiteFrame({ children }: { children: ReactNode }) {
  return (
    <>
      <a href="#main" className="skip-link">
        Skip to content
      </a>
      <Header />
      <main id="main">{children}</main>
      <Footer />
    </>
  );
}
