import { useEffect } from 'react';
import { Link, useNavigate } from 'react-router';
import { outcomeRoute } from '@funnel/contracts/lead-outcome';
import { PageHeading } from '@/components/ui/page-heading';
import { PageLoader } from '@/components/ui/page-loader';
import { useFreshLead } from '@/lib/get-lead';
import styles from './congratulations-page.module.css';

/**
 * Where a visitor whose request is not complete belongs instead: a submitted lead's outcome screen (or the
 * waiting screen), an unsubmitted one's next step, and anyone without a lead the landing page.
 */
function elsewhere(lead: ReturnType<typeof useFreshLead>): string | undefined {
  if (!lead.isFetchedAfterMount && !lead.isError) return undefined;
  const data = lead.data;
  if (!data) return '/';
  if (!data.outcome) return `/${data.nextStep}`;
  return data.outcome.outcome === 'sold' ? undefined : outcomeRoute(data.outcome);
}

/**
 * /congratulations: the thank-you page at the end of a completed request, shown only to a visitor whose lead
 * really completed (sold); anyone else is taken where they belong (issue 25: it was open to anyone). Spec §2
 * names only the route and the header's special style, which the header picks up from this path.
 */
export default function CongratulationsPage() {
  const navigate = useNavigate();
  const lead = useFreshLead();
  const away = elsewhere(lead);
  const completed = lead.isFetchedAfterMount && lead.data?.outcome?.outcome === 'sold';

  useEffect(() => {
    if (away) void navigate(away, { replace: true });
  }, [away, navigate]);

  if (!completed) return <PageLoader message="Loading your request…" />;
  return (
    <div className={styles.band}>
      <div className={`container ${styles.inner}`}>
        <svg viewBox="0 0 64 64" width="64" height="64" aria-hidden="true" className={styles.icon}>
          <circle cx="32" cy="32" r="30" fill="#39b27a" />
          <path d="M19 33l9 9 18-19" fill="none" stroke="#fff" strokeWidth="5" strokeLinecap="round" />
        </svg>
        <PageHeading className={styles.title}>Congratulations!</PageHeading>
        <p className={styles.lead}>Your loan request is complete.</p>
        <div className={styles.card}>
          <h2 className={styles.cardTitle}>What happens next</h2>
          <ol className={styles.steps}>
            <li>A lender that can help you will contact you by email or phone, often within minutes.</li>
            <li>Read its offer carefully, including the APR, the fees and the repayment dates.</li>
            <li>
              If you accept, the lender sends the money to your bank account, often by the next business day.
            </li>
          </ol>
          <p className={styles.note}>
            You are never obliged to accept an offer. Look in your spam folder too if you do not hear from a
            lender.
          </p>
          <Link to="/" className={styles.home}>
            Back to the home page
          </Link>
        </div>
      </div>
    </div>
  );
}
