import type { ReactNode } from 'react';
import styles from './marketing.module.css';

const BENEFITS: readonly { title: string; text: string; icon: ReactNode }[] = [
  {
    title: 'Easy to request',
    text: 'One short form, one question at a time, on any device. Most people finish in a few minutes.',
    icon: (
      <>
        <rect x="7" y="4" width="18" height="24" rx="3" fill="none" stroke="currentColor" strokeWidth="2.2" />
        <path d="M11 11h10M11 16h10M11 21h6" stroke="currentColor" strokeWidth="2.2" strokeLinecap="round" />
      </>
    ),
  },
  {
    title: 'All credit types welcome',
    text: 'Excellent, fair or poor: lenders in our network look at more than your credit score.',
    icon: (
      <>
        <path d="M5 22a11 11 0 0 1 22 0" fill="none" stroke="currentColor" strokeWidth="2.2" />
        <path d="M16 22l5-7" stroke="currentColor" strokeWidth="2.2" strokeLinecap="round" />
        <circle cx="16" cy="22" r="2" fill="currentColor" />
      </>
    ),
  },
  {
    title: 'Secure for you',
    text: 'Your details travel over an encrypted connection and the sensitive ones are encrypted when stored.',
    icon: (
      <>
        <rect
          x="7"
          y="14"
          width="18"
          height="13"
          rx="2.5"
          fill="none"
          stroke="currentColor"
          strokeWidth="2.2"
        />
        <path d="M11 14v-3a5 5 0 0 1 10 0v3" fill="none" stroke="currentColor" strokeWidth="2.2" />
        <path d="M16 19v3" stroke="currentColor" strokeWidth="2.2" strokeLinecap="round" />
      </>
    ),
  },
];

/** The three reasons to use the service (spec §1 "why choose us"). */
export function WhyChooseUs() {
  return (
    <ul className={styles.cards}>
      {BENEFITS.map((benefit) => (
        <li key={benefit.title} className={styles.card}>
          <svg viewBox="0 0 32 32" width="40" height="40" aria-hidden="true" className={styles.cardIcon}>
            {benefit.icon}
          </svg>
          <h3 className={styles.cardTitle}>{benefit.title}</h3>
          <p className={styles.cardText}>{benefit.text}</p>
        </li>
      ))}
    </ul>
  );
}
