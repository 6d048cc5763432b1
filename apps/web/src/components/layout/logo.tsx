import { BRAND } from '@/config/brand';
import styles from './logo.module.css';

/**
 * The brand's logo: the operator's file when `BRAND.logoSrc` names one, else the built-in mark and the brand
 * name. `inverted` is for dark backgrounds.
 */
export function Logo({ inverted = false }: { inverted?: boolean }) {
  const className = `${styles.logo} ${inverted ? styles.inverted : ''}`;
  if (BRAND.logoSrc) {
    return (
      <span className={className}>
        <img src={BRAND.logoSrc} alt={BRAND.name} className={styles.image} />
      </span>
    );
  }
  return (
    <span className={className}>
      <svg viewBox="0 0 32 32" width="32" height="32" aria-hidden="true" className={styles.mark}>
        <rect width="32" height="32" rx="8" fill="currentColor" />
        <path d="M6 21c4-7 16-7 20 0" fill="none" stroke="#fff" strokeWidth="2.6" strokeLinecap="round" />
        <path d="M10 21v-4M16 21v-6M22 21v-4" stroke="#fff" strokeWidth="2.2" strokeLinecap="round" />
      </svg>
      <span className={styles.name}>{BRAND.name}</span>
    </span>
  );
}
