import { introStatuses, type IntroStatus } from '../utils/progress-sequence';
import styles from './intro-steps.module.css';

const INTRO_STEPS = ['Formation of the request', 'Connection setup', 'Start the process'] as const;

const STATUS_LABELS: Record<IntroStatus, string> = {
  done: 'Done',
  active: 'In progress',
  waiting: 'Waiting',
};

/** The three intro steps, advancing one after another while step `index` of the sequence shows. */
export function IntroSteps({ index }: { index: number }) {
  const statuses = introStatuses(index);
  return (
    <ol className={styles.steps} aria-label="Your request">
      {INTRO_STEPS.map((label, index) => {
        const status = statuses[index] ?? 'waiting';
        return (
          <li
            key={label}
            className={styles.step}
            data-status={status}
            aria-current={status === 'active' ? 'step' : undefined}
          >
            <span className={styles.marker} aria-hidden="true">
              {status === 'done' ? (
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
