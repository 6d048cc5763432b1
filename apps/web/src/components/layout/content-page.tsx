import type { ReactNode } from 'react';
import { PageHeading } from '@/components/ui/page-heading';
import styles from './content-page.module.css';

interface ContentPageProps {
  title: string;
  /** A sentence under the title saying what the page is for. */
  intro?: ReactNode;
  /** Shown as 'Last updated …' under the title, as the legal pages date themselves. */
  lastUpdated?: string;
  children: ReactNode;
}

/**
 * The frame of a reading page (the legal pages, the FAQ, contact, partners, the privacy forms): a title band and
 * a readable column whose headings, paragraphs and lists are styled here, so pages hold only their words.
 */
export function ContentPage({ title, intro, lastUpdated, children }: ContentPageProps) {
  return (
    <>
      <div className={styles.band}>
        <div className={`container ${styles.column}`}>
          <PageHeading className={styles.title}>{title}</PageHeading>
          {lastUpdated && <p className={styles.updated}>Last updated: {lastUpdated}</p>}
          {intro && <p className={styles.intro}>{intro}</p>}
        </div>
      </div>
      <div className={`container ${styles.column} ${styles.body}`}>{children}</div>
    </>
  );
}
