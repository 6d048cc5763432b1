import { useNavigate } from 'react-router';
import type { LeadSummary } from '@funnel/contracts/api';
import { Button } from '@/components/ui/button';
import { useAbandonLead } from '../api/abandon-lead';
import { resumeRoute } from '../utils/resume-route';
import styles from './landing.module.css';

interface ResumeOfferProps {
  lead: LeadSummary;
  /** Called once the old draft is gone and the landing form is back. */
  onStartedOver: () => void;
}

/**
 * In place of the landing form for a returning visitor with an unfinished application (docs/product-rules.md §returning-visitors-and-sessions): continue
 * on the BFF's next step, or start over, which abandons the old draft so the form begins a new one.
 */
export function ResumeOffer({ lead, onStartedOver }: ResumeOfferProps) {
  const navigate = useNavigate();
  const abandon = useAbandonLead();
  const firstName = typeof lead.answers.firstName === 'string' ? lead.answers.firstName : undefined;

  return (
    <section className={styles.form} aria-labelledby="resume-title">
      <h2 id="resume-title" className={styles.formTitle}>
        {firstName ? `Welcome back, ${firstName}!` : 'Welcome back!'}
      </h2>
      <p className={styles.resumeText}>
        You have a loan request in progress. Continue where you left off, or start over with a new request.
      </p>
      <Button wide onClick={() => void navigate(resumeRoute(lead))}>
        Continue your application
      </Button>
      <Button
        wide
        variant="secondary"
        className={styles.resumeSecondary}
        busy={abandon.isPending}
        busyLabel="Starting over…"
        onClick={() => abandon.mutate(undefined, { onSuccess: onStartedOver })}
      >
        Start over
      </Button>
      {abandon.isError && (
        <p className={styles.failure} role="alert">
          We could not start over just now. Please try again.
        </p>
      )}
    </section>
  );
}
