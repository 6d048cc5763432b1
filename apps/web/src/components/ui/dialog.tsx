import {
  useEffect,
  useId,
  useRef,
  type KeyboardEvent,
  type MouseEvent,
  type ReactNode,
  type RefObject,
} from 'react';
import styles from './dialog.module.css';

interface DialogProps {
  open: boolean;
  title: ReactNode;
  onClose: () => void;
  children: ReactNode;
  /** Buttons under the content; without them the dialog gets a Close button. */
  actions?: ReactNode;
  /** Where focus goes when the dialog closes; by default back to what had it when the dialog opened. */
  finalFocusRef?: RefObject<HTMLElement | null>;
  /**
   * What gets focus when the dialog opens. By default its primary action, the last of `actions` (so Enter
   * confirms, issue 25); a dialog without actions focuses its Close button at the bottom.
   */
  initialFocusRef?: RefObject<HTMLElement | null>;
  /** `alertdialog` for a message that needs the visitor's acknowledgement (read out at once). */
  role?: 'dialog' | 'alertdialog';
  /** The id of the element holding the dialog's message, read after its title. */
  describedBy?: string;
  size?: 'small' | 'large';
}

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/**
 * A modal dialog on the native `<dialog>`: the page behind is inert, Esc and a click on the backdrop close it,
 * Tab cycles inside it, and focus returns where it came from.
 */
export function Dialog({
  open,
  title,
  onClose,
  children,
  actions,
  finalFocusRef,
  initialFocusRef,
  role,
  describedBy,
  size = 'small',
}: DialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const openerRef = useRef<Element | null>(null);
  const actionsRef = useRef<HTMLDivElement>(null);
  const titleId = useId();

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      openerRef.current = document.activeElement;
      dialog.showModal();
      // The primary action is the last of the actions (a dialog without actions: its Close button).
      (initialFocusRef?.current ?? (actionsRef.current?.lastElementChild as HTMLElement | null))?.focus();
    } else if (!open && dialog.open) {
      dialog.close();
      // Here rather than on the 'close' event, which fires a task later: by then a test (or a screen reader) may
      // already have seen focus on the page's body.
      const target = finalFocusRef?.current ?? openerRef.current;
      if (target instanceof HTMLElement) target.focus();
    }
  }, [open, initialFocusRef, finalFocusRef]);

  function trapTab(event: KeyboardEvent<HTMLDialogElement>) {
    if (event.key !== 'Tab') return;
    const focusable = [...event.currentTarget.querySelectorAll<HTMLElement>(FOCUSABLE)];
    const first = focusable[0];
    const last = focusable[focusable.length - 1];
    if (!first || !last) return;
    if (event.shiftKey && document.activeElement === first) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault();
      first.focus();
    }
  }

  // A click whose target is the <dialog> itself landed on the backdrop: the content fills an inner box.
  function closeOnBackdrop(event: MouseEvent<HTMLDialogElement>) {
    if (event.target === event.currentTarget) onClose();
  }

  return (
    <dialog
      ref={ref}
      className={`${styles.dialog} ${size === 'large' ? styles.large : ''}`}
      role={role}
      aria-labelledby={titleId}
      aria-describedby={describedBy}
      onCancel={(event) => {
        // Esc: the owner decides, so `open` stays the one source of truth.
        event.preventDefault();
        onClose();
      }}
      onKeyDown={trapTab}
      onClick={closeOnBackdrop}
    >
      {/* Drawn only while open: a closed dialog's text is no part of the page's HTML, nor of its hydration. */}
      {open && (
        <div className={styles.box}>
          <div className={styles.header}>
            <h2 id={titleId} className={styles.title}>
              {title}
            </h2>
            <button type="button" className={styles.close} onClick={onClose} aria-label="Close">
              <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true">
                <path
                  d="M6 6l12 12M18 6L6 18"
                  stroke="currentColor"
                  strokeWidth="2.2"
                  strokeLinecap="round"
                />
              </svg>
            </button>
          </div>
          <div className={styles.body}>{children}</div>
          <div className={styles.actions} ref={actionsRef}>
            {actions ?? (
              <button type="button" className={styles.secondaryClose} onClick={onClose}>
                Close
              </button>
            )}
          </div>
        </div>
      )}
    </dialog>
  );
}
