import { PageHeading } from '@/components/ui/page-heading';
import { Spinner } from '@/components/ui/spinner';
import styles from './matching-screen.module.css';

const STAGES = ['Formation of the request', 'Connection setup', 'Start the process'] as const;

/**
 * /mapping-lender and /configuration: the visitor waits here while the request goes to lenders (spec §2). The
 * submission and its live progress arrive with the submission pipeline; until then this is the waiting state.
 */
export default function MatchingScreen() {
  return (
    <div className={`container ${styles.wrapper}`}>
      <div className={styles.card}>
        <Spinner size="large" />
        <PageHeading className={styles.title}>Please do not close this window</PageHeading>
        <p className={styles.subtitle}>
          We are connecting you with lenders in our network. You will be redirected to a lender&apos;s site as
          soon as a connection is made.
        </p>
        <ol className={styles.stages} aria-label="Progress">
          {STAGES.map((stage, index) => (
            <li key={stage} className={styles.stage} aria-current={index === 0 ? 'step' : undefined}>
              <span className={styles.stageNumber} aria-hidden="true">
                {index + 1}
              </span>
              {stage}
            </li>
          ))}
        </ol>
        <p className={styles.note} role="status">
          Searching lenders…
        </p>
      </div>
    </div>
  );
}
