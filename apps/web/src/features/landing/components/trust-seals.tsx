import type { ReactNode } from 'react';
import { BRAND, type TrustSeal } from '@/config/brand';
import styles from './marketing.module.css';

/** Drawn for this site: no third-party seal images or scripts. */
const SEAL_ICONS: Record<TrustSeal['kind'], ReactNode> = {
  ssl: (
    <>
      <rect x="8" y="14" width="16" height="12" rx="2" fill="currentColor" />
      <path d="M11.5 14v-3a4.5 4.5 0 0 1 9 0v3" fill="none" stroke="currentColor" strokeWidth="2.4" />
    </>
  ),
  'certificate-authority': (
    <>
      <path d="M16 3l10 4v8c0 7-4.5 11.5-10 14-5.5-2.5-10-7-10-14V7z" fill="currentColor" />
      <path d="M11 16l3.5 3.5L21 13" fill="none" stroke="#fff" strokeWidth="2.4" strokeLinecap="round" />
    </>
  ),
  'lenders-alliance': (
    <>
      <circle cx="16" cy="13" r="9" fill="currentColor" />
      <path d="M11 20l-2 9 7-3 7 3-2-9" fill="currentColor" />
      <path d="M12 13l3 3 5-6" fill="none" stroke="#fff" strokeWidth="2.2" strokeLinecap="round" />
    </>
  ),
};

/** The trust seals of spec §1, from the brand configuration (an operator lists only seals it holds). */
export function TrustSeals() {
  return (
    <ul className={styles.seals} aria-label="Trust seals">
      {BRAND.trustSeals.map((seal) => (
        <li key={seal.kind} className={styles.seal}>
          <svg viewBox="0 0 32 32" width="36" height="36" aria-hidden="true" className={styles.sealIcon}>
            {SEAL_ICONS[seal.kind]}
          </svg>
          <span>
            <strong className={styles.sealTitle}>{seal.title}</strong>
            <span className={styles.sealDetail}>{seal.detail}</span>
          </span>
        </li>
      ))}
    </ul>
  );
}
