import type { ReactNode } from 'react';
import type { SocialNetwork } from '@funnel/contracts/public-config';
import { BRAND } from '@/config/brand';
import { useBrandLinks } from '@/lib/brand-links';
import styles from './social-links.module.css';

const NETWORK_NAMES: Record<SocialNetwork, string> = {
  facebook: 'Facebook',
  x: 'X',
  instagram: 'Instagram',
  linkedin: 'LinkedIn',
  youtube: 'YouTube',
};

/** Simple glyphs drawn for this site (no third-party image or font), on a 24 × 24 grid. */
const NETWORK_ICONS: Record<SocialNetwork, ReactNode> = {
  facebook: (
    <path
      d="M13.4 20v-7h2.4l.4-2.8h-2.8V8.5c0-.8.3-1.4 1.4-1.4h1.5V4.6a19 19 0 0 0-2.2-.1c-2.2 0-3.6 1.3-3.6 3.7v2H8v2.8h2.5v7z"
      fill="currentColor"
    />
  ),
  x: <path d="M5 4.5l14 15M19 4.5l-14 15" stroke="currentColor" strokeWidth="2.2" strokeLinecap="round" />,
  instagram: (
    <>
      <rect x="4" y="4" width="16" height="16" rx="4.5" fill="none" stroke="currentColor" strokeWidth="2" />
      <circle cx="12" cy="12" r="3.6" fill="none" stroke="currentColor" strokeWidth="2" />
      <circle cx="16.9" cy="7.1" r="1.2" fill="currentColor" />
    </>
  ),
  linkedin: (
    <>
      <rect x="4.5" y="9.5" width="3" height="10" fill="currentColor" />
      <circle cx="6" cy="6" r="1.8" fill="currentColor" />
      <path
        d="M10.5 9.5h2.9v1.4c.5-.9 1.6-1.7 3.2-1.7 2.6 0 3.4 1.7 3.4 4.2v6.1h-3v-5.4c0-1.3-.3-2.3-1.6-2.3s-1.9 1-1.9 2.3v5.4h-3z"
        fill="currentColor"
      />
    </>
  ),
  youtube: (
    <>
      <rect x="2.5" y="5.5" width="19" height="13" rx="4" fill="currentColor" />
      <path d="M10 9v6l5.2-3z" fill="var(--social-icon-cutout, #0f2f6b)" />
    </>
  ),
};

/**
 * The brand's social profiles (the BFF's `BRAND_SOCIAL_LINKS`), as labelled icon links opening a new tab; none
 * shows when none is configured.
 */
export function SocialLinks() {
  const social = useBrandLinks()?.social ?? [];
  if (social.length === 0) return null;
  return (
    <ul className={styles.list} aria-label={`${BRAND.name} on social media`}>
      {social.map((link) => (
        <li key={link.network}>
          <a
            href={link.url}
            className={styles.link}
            target="_blank"
            rel="noopener noreferrer"
            aria-label={`${BRAND.name} on ${NETWORK_NAMES[link.network]} (opens in a new tab)`}
          >
            <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true">
              {NETWORK_ICONS[link.network]}
            </svg>
          </a>
        </li>
      ))}
    </ul>
  );
}
