import type { ProgressState } from '../hooks/use-progress-sequence';
import styles from './intro-steps.module.css';

const INTRO_STEPS = ['Formation of the request', 'Connection setup', 'Start the process'] as const;

type IntroStatus = 'completed' | 'active' | 'ready';

const STATUS_LABELS: Record<IntroStatus, string> = {
  completed: 'Done',
  active: 'In progress',
  ready: 'Ready',
};

/**
 * The three-step intro's statuses: active, ready, ready while lenders are searched (spec §4); the connection is
 * being set up while lenders connect; the process starts once the answer is in.
 */
function introStatuses(progress: ProgressState, answered: boolean): IntroStatus[] {
  if (answered) return ['completed', 'completed', 'active'];
  if (progress.step === 'searching') return ['active', 'ready', 'ready'];
  return ['completed', 'active', 'ready'];
}

export function IntroSteps({ progress, answered }: { progress: ProgressState; answered: boolean }) {
  const statuses = introStatuses(progress, answered);
  return (
    <ol className={styles.steps} aria-label="Your request">
      {INTRO_STEPS.map((label, index) => {
        const status = statuses[index] ?? 'ready';
        return (
          <li
            key={label}
            className={styles.step}
            data-status={status}
            aria-current={status === 'active' ? 'step' : undefined}
          >
            <span className={styles.marker} aria-hidden="true">
              {status === 'completed' ? (
                <svg viewBox="0 0 20 20" width="16" height="16">
                  <path
                    d="M4.5 10.5l3.5 3.5 7.5-8"
                    fill="none"
                    stroke="currentColor"
                    strokeWidth="2.4"
                    strokeLinecap="round"
                    strokeLinejoin="round"
                  />
                </svg>
              ) : (
                index + 1
              )}
            </span>
            <span className={styles.text}>
              <span>{label}</span>
              <span className={styles.status}>{STATUS_LABELS[status]}</span>
            </span>
          </li>
        );
      })}
    </ol>
  );
}
