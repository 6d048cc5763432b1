import { BRAND_NAME } from '@/config/brand';
import styles from './logo.module.css';

/** The brand mark and name. */
export function Logo({ inverted = false }: { inverted?: boolean }) {
  return (
    <span className={`${styles.logo} ${inverted ? styles.inverted : ''}`}>
      <svg viewBox="0 0 32 32" width="32" height="32" aria-hidden="true" className={styles.mark}>
        <rect width="32" height="32" rx="8" fill="currentColor" />
        <path d="M6 21c4-7 16-7 20 0" fill="none" stroke="#fff" strokeWidth="2.6" strokeLinecap="round" />
        <path d="M10 21v-4M16 21v-6M22 21v-4" stroke="#fff" strokeWidth="2.2" strokeLinecap="round" />
      </svg>
      <span className={styles.name}>{BRAND_NAME}</span>
    </span>
  );
}
