import { NavLink, Outlet } from 'react-router';
import { BRAND_NAME } from '@/config/brand';
import { Button } from '@/components/ui/button';
import { PageLoader } from '@/components/ui/page-loader';
import { useOperatorSession, useSignOut } from '../api/operator-session';
import { SignInForm } from './sign-in-form';
import styles from './operator.module.css';
import leads from './leads.module.css';

/**
 * `/operator`: the console of the business's operators: the reports (`/operator`) and the lead search
 * (`/operator/leads`, a lead's journey at `/operator/leads/:leadId`). A lazy route of its own, outside the
 * borrower's site frame, so none of it (nor the chart library) is in the borrower's bundle (ADR 0010).
 */
export default function OperatorPage() {
  const session = useOperatorSession();
  const signOut = useSignOut();
  const signedIn = session.data?.signedIn === true;

  return (
    <div className={styles.page}>
      <header className={styles.bar}>
        <div className={`container ${styles.barInner}`}>
          <p className={styles.brand}>{BRAND_NAME} · Operators</p>
          {signedIn && (
            <Button
              variant="secondary"
              className={styles.signOut}
              busy={signOut.isPending}
              busyLabel="Signing out…"
              onClick={() => signOut.mutate()}
            >
              Sign out
            </Button>
          )}
        </div>
      </header>
      <main className={`container ${styles.main}`}>
        {session.isPending ? (
          <PageLoader />
        ) : session.error ? (
          <p className={styles.failed} role="alert">
            The server could not be reached. Please reload the page.
          </p>
        ) : signedIn ? (
          <>
            <nav className={leads.nav} aria-label="Console">
              <NavLink to="/operator" end>
                Reports
              </NavLink>
              <NavLink to="/operator/leads">Leads</NavLink>
            </nav>
            <Outlet />
          </>
        ) : (
          <SignInForm />
        )}
      </main>
    </div>
  );
}
