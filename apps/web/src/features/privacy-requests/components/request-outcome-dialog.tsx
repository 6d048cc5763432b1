import { useId, useRef } from 'react';
import { Dialog } from '@/components/ui/dialog';
import type { RequestOutcome } from '../hooks/use-privacy-request-form';
import styles from './privacy-request-form.module.css';

const TITLES = { success: 'Request received', error: 'Request not sent' } as const;

/**
 * The alert after a privacy request (spec §2, §8): the server's message with a success or an error icon, and OK.
 * It takes focus on OK, and closing it returns focus to the submit button.
 */
export function RequestOutcomeDialog({
  outcome,
  onClose,
}: {
  outcome: RequestOutcome | null;
  onClose: () => void;
}) {
  const okRef = useRef<HTMLButtonElement>(null);
  const messageId = useId();
  const kind = outcome?.kind ?? 'success';
  return (
    <Dialog
      open={outcome !== null}
      role="alertdialog"
      title={TITLES[kind]}
      describedBy={messageId}
      initialFocusRef={okRef}
      onClose={onClose}
      actions={
        <button ref={okRef} type="button" className={styles.ok} onClick={onClose}>
          OK
        </button>
      }
    >
      <div className={styles.outcome} data-kind={kind}>
        {kind === 'success' ? (
          <svg viewBox="0 0 48 48" width="48" height="48" aria-hidden="true" className={styles.outcomeIcon}>
            <circle cx="24" cy="24" r="22" fill="currentColor" />
            <path d="M14 25l7 7 13-15" fill="none" stroke="#fff" strokeWidth="4" strokeLinecap="round" />
          </svg>
        ) : (
          <svg viewBox="0 0 48 48" width="48" height="48" aria-hidden="true" className={styles.outcomeIcon}>
            <circle cx="24" cy="24" r="22" fill="currentColor" />
            <path d="M24 13v14M24 34v1" stroke="#fff" strokeWidth="4.5" strokeLinecap="round" />
          </svg>
        )}
        <p id={messageId} className={styles.outcomeMessage}>
          {outcome?.message}
        </p>
      </div>
    </Dialog>
  );
}
