import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { PageHeading } from '@/components/ui/page-heading';
import styles from './status-screen.module.css';

/** A plain message page with a way back to the start. */
export function StatusScreen({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className={`container ${styles.screen}`}>
      <PageHeading>{title}</PageHeading>
      {children}
      <p>
        <Link to="/start">Go to the start page</Link>
      </p>
    </div>
  );
}
