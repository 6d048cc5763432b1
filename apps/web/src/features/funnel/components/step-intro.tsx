import type { ReactNode } from 'react';
import styles from './step-intro.module.css';

/** A line under a step's question that says why it is asked or what counts. */
export function StepIntro({ children }: { children: ReactNode }) {
  return <p className={styles.intro}>{children}</p>;
}
