import type { ReactNode } from 'react';
import { Button } from '@/components/ui/button';
import styles from './saved-answer.module.css';

interface SavedAnswerProps {
  /** What is on file, e.g. "Your Social Security Number ending in 6789 is on file." */
  children: ReactNode;
  replaceLabel: string;
  onReplace: () => void;
}

/**
 * A sensitive answer the BFF holds but only ever returns masked (docs/product-rules.md §sensitive-data): the screen says it is on file and
 * offers to enter a new one; Next keeps it.
 */
export function SavedAnswer({ children, replaceLabel, onReplace }: SavedAnswerProps) {
  return (
    <div className={styles.saved}>
      <svg viewBox="0 0 24 24" width="28" height="28" aria-hidden="true" className={styles.icon}>
        <circle cx="12" cy="12" r="11" fill="currentColor" />
        <path d="M7 12.5l3.2 3.2L17 9" fill="none" stroke="#fff" strokeWidth="2.4" strokeLinecap="round" />
      </svg>
      <div>
        <p className={styles.text}>{children}</p>
        <Button variant="link" onClick={onReplace}>
          {replaceLabel}
        </Button>
      </div>
    </div>
  );
}

/** The characters a masked answer shows ('•••• 6789' → '6789'). */
export function lastFour(masked: string): string {
  return masked.replace(/^[•\s]+/, '');
}
