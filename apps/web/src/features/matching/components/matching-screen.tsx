import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { isFinalOutcome, outcomeRoute } from '@funnel/contracts/lead-outcome';
import { PageHeading } from '@/components/ui/page-heading';
import { Spinner } from '@/components/ui/spinner';
import { BRAND_NAME } from '@/config/brand';
import { isSessionExpired, useExpireSession } from '@/hooks/use-expire-session';
import { useFreshLead } from '@/lib/get-lead';
import { latestOutcome, type OutcomeRouteState } from '@/lib/outcome-route-state';
import { useLeadOutcomeEvents } from '../api/lead-outcome-events';
import { useProgressSequence, type ProgressState } from '../hooks/use-progress-sequence';
import { CrossSellPanel } from './cross-sell-panel';
import { IntroSteps } from './intro-steps';
import styles from './matching-screen.module.css';

const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', maximumFractionDigits: 0 });

const TITLE_ID = 'matching-title';

function progressText(progress: ProgressState, amount: unknown): string {
  if (progress.step === 'connecting') return 'Connecting lenders';
  if (progress.step !== 'searching') return 'Preparing your request';
  return typeof amount === 'number' ? `Searching lenders for ${usd.format(amount)}` : 'Searching lenders';
}

/**
 * /mapping-lender and /configuration: the visitor waits here while the worker submits the application to the
 * lender network (spec §2, §4). The outcome is pushed over server-sent events; the lead read on arrival covers a
 * reload. Once the answer is final the progress sequence finishes quickly and the outcome's screen opens, with
 * the outcome in router state. A lead not yet submitted goes back to its next step.
 */
export default function MatchingScreen() {
  const navigate = useNavigate();
  const expireSession = useExpireSession();
  const lead = useFreshLead();
  const pushed = useLeadOutcomeEvents();
  const [crossSellOpen, setCrossSellOpen] = useState(true);
  const alerted = useRef(false);

  const read = lead.isFetchedAfterMount ? lead.data?.outcome : undefined;
  const outcome = latestOutcome(read, pushed);
  const final = outcome !== undefined && isFinalOutcome(outcome.outcome);
  const progress = useProgressSequence(final);
  const unsubmittedStep = lead.isFetchedAfterMount && !outcome ? lead.data?.nextStep : undefined;
  const expired = isSessionExpired(lead.error);

  useEffect(() => {
    if (!progress.finished || !outcome) return;
    const state: OutcomeRouteState = { outcome };
    void navigate(outcomeRoute(outcome), { replace: true, state });
  }, [progress.finished, outcome, navigate]);

  useEffect(() => {
    if (unsubmittedStep) void navigate(`/${unsubmittedStep}`, { replace: true });
  }, [unsubmittedStep, navigate]);

  useEffect(() => {
    if (!expired || alerted.current) return;
    alerted.current = true;
    expireSession();
  }, [expired, expireSession]);

  return (
    <div className={`container ${styles.wrapper}`}>
      <div className={styles.card}>
        <Spinner size="large" />
        <PageHeading id={TITLE_ID} className={styles.title}>
          Please do not close this window
        </PageHeading>
        <p className={styles.subtitle}>
          We are connecting you with lenders in our network. Once a lender is connected, you will be
          redirected to the lender&apos;s site.
        </p>
        <IntroSteps index={progress.index} />
        <div className={styles.progress}>
          <div className={styles.track} aria-hidden="true">
            <ProgressFill progress={progress} answered={final} />
          </div>
          <p className={styles.status} role="status">
            {progressText(progress, lead.data?.answers.amount)}
          </p>
        </div>
        {crossSellOpen && (
          <CrossSellPanel
            onClose={() => {
              setCrossSellOpen(false);
              // The panel was below the fold: bring the title and the steps back into view (docs/product-rules.md §matching-screen).
              const title = document.getElementById(TITLE_ID);
              title?.scrollIntoView({ block: 'center' });
              title?.focus({ preventScroll: true });
            }}
          />
        )}
        <p className={styles.disclaimer}>
          {BRAND_NAME} is not a lender and does not make credit decisions. Lenders in our network review your
          request. You can cancel your request only once you have been redirected to a lender&apos;s site,
          where you are free to decline any offer.
        </p>
      </div>
    </div>
  );
}

/**
 * The bar under the steps. It moves a little with each intro step, creeps towards the end over the search's
 * 193 s, and runs to the end within a
 * second once the answer is in (a new target restarts the transition from where the bar stands).
 */
function ProgressFill({ progress, answered }: { progress: ProgressState; answered: boolean }) {
  const [started, setStarted] = useState(false);
  useEffect(() => {
    const frame = requestAnimationFrame(() => setStarted(true));
    return () => cancelAnimationFrame(frame);
  }, []);
  const [share, durationMs] = !started
    ? [0.03, 0]
    : answered
      ? [1, 1_000]
      : progress.step === 'searching'
        ? [0.85, 193_000]
        : progress.step === 'connecting'
          ? [0.95, 500]
          : [0.03 + 0.02 * progress.index, 1_500];
  return (
    <div
      className={styles.fill}
      style={{ transform: `scaleX(${share})`, transitionDuration: `${durationMs}ms` }}
    />
  );
}
