import { lazy, Suspense } from 'react';
import { NavLink, Route, Routes, useLocation } from 'react-router';
import { roleAllows, type OperatorMe } from '@funnel/contracts/operators';
import { BRAND_NAME } from '@/config/brand';
import { Button } from '@/components/ui/button';
import { PageLoader } from '@/components/ui/page-loader';
import { useOperatorSession, useSignOut } from '../api/operator-session';
import { AccountsPage } from './accounts-page';
import { AuditPage } from './audit-page';
import LeadJourneyPage from './lead-journey-page';
import LeadSearchPage from './lead-search-page';
import { ReportsDashboard } from './reports-dashboard';
import { ReturnsPage } from './returns-page';
import { SecurityPage } from './security-page';
import { SetupForm } from './setup-form';
import { SignInForm } from './sign-in-form';
import styles from './operator.module.css';

// Managers' and admins' only: a chunk of its own, never loaded for a viewer.
const BuyersPage = lazy(() => import('./buyers-page'));

/** The console's pages; a manager's or an admin's are not even linked for lower roles (the BFF answers 403). */
function ConsoleNav({ account }: { account: OperatorMe }) {
  const admin = roleAllows(account.role, 'admin');
  const manager = roleAllows(account.role, 'manager');
  const link = ({ isActive }: { isActive: boolean }) =>
    isActive ? `${styles.navLink} ${styles.active}` : styles.navLink;
  return (
    <nav aria-label="Console" className={`container ${styles.nav}`}>
      <NavLink to="/operator" end className={link}>
        Reports
      </NavLink>
      <NavLink to="/operator/leads" className={link}>
        Leads
      </NavLink>
      {manager && (
        <NavLink to="/operator/buyers" className={link}>
          Buyers
        </NavLink>
      )}
      {manager && (
        <NavLink to="/operator/returns" className={link}>
          Returns
        </NavLink>
      )}
      {admin && (
        <NavLink to="/operator/accounts" className={link}>
          Accounts
        </NavLink>
      )}
      {admin && (
        <NavLink to="/operator/audit" className={link}>
          Audit log
        </NavLink>
      )}
      <NavLink to="/operator/security" className={link}>
        Security
      </NavLink>
    </nav>
  );
}

/**
 * `/operator/*`: the operators' console (ADR 0010, ADR 0021): the reports, the lead search and a lead's journey
 * (`/operator/leads`, `/operator/leads/:leadId`), for managers the returns, and for admins the accounts and the audit log. A lazy route of its own, outside the borrower's
 * site frame, so none of it (nor the chart library) is in the borrower's bundle. Each person signs in with their
 * own account; what the page offers follows their role.
 */
export default function OperatorPage() {
  const session = useOperatorSession();
  const signOut = useSignOut();
  const { pathname } = useLocation();
  const account = session.data?.signedIn ? session.data.account : undefined;

  let body;
  if (pathname.startsWith('/operator/setup')) body = <SetupForm />;
  else if (session.isPending) body = <PageLoader />;
  else if (session.error) {
    body = (
      <p className={styles.failed} role="alert">
        The server could not be reached. Please reload the page.
      </p>
    );
  } else if (!account)
    body = <SignInForm oidc={session.data?.oidc === true} provider={session.data?.oidcProvider} />;
  else if (session.data?.secondFactorNeeded) body = <SecurityPage me={account} required />;
  else {
    body = (
      <Routes>
        <Route index element={<ReportsDashboard />} />
        <Route path="leads" element={<LeadSearchPage />} />
        <Route path="leads/:leadId" element={<LeadJourneyPage />} />
        <Route
          path="buyers"
          element={
            roleAllows(account.role, 'manager') ? (
              <Suspense fallback={<PageLoader message="Loading the buyers…" />}>
                <BuyersPage />
              </Suspense>
            ) : (
              <p className={styles.failed} role="alert">
                Buyers are managed by a manager or an admin.
              </p>
            )
          }
        />
        <Route path="returns" element={<ReturnsPage />} />
        <Route path="accounts" element={<AccountsPage me={account} />} />
        <Route path="audit" element={<AuditPage />} />
        <Route path="security" element={<SecurityPage me={account} />} />
        <Route path="*" element={<ReportsDashboard />} />
      </Routes>
    );
  }

  return (
    <div className={styles.page}>
      <header className={styles.bar}>
        <div className={`container ${styles.barInner}`}>
          <p className={styles.brand}>{BRAND_NAME} · Operators</p>
          {account && (
            <div className={styles.who}>
              <span>
                {account.displayName} <span className={styles.role}>({account.role})</span>
              </span>
              <Button
                variant="secondary"
                className={styles.signOut}
                busy={signOut.isPending}
                busyLabel="Signing out…"
                onClick={() => signOut.mutate(undefined)}
              >
                Sign out
              </Button>
            </div>
          )}
        </div>
        {account && !session.data?.secondFactorNeeded && <ConsoleNav account={account} />}
      </header>
      <main className={`container ${styles.main}`}>{body}</main>
    </div>
  );
}
