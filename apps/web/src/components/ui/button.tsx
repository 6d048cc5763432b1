import type { ButtonHTMLAttributes, MouseEvent } from 'react';
import { Spinner } from './spinner';
import styles from './button.module.css';

interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: 'primary' | 'secondary' | 'link';
  /** Shows a spinner and `busyLabel`, and swallows further presses until the work is done. */
  busy?: boolean;
  busyLabel?: string;
  wide?: boolean;
}

export function Button({
  variant = 'primary',
  busy = false,
  busyLabel = 'Saving…',
  wide = false,
  className,
  children,
  onClick,
  type = 'button',
  ...rest
}: ButtonProps) {
  // aria-disabled rather than disabled: the button keeps focus while busy, so keyboard users do not lose their
  // place, and a second press is ignored here instead of by the browser.
  function handleClick(event: MouseEvent<HTMLButtonElement>) {
    if (busy) {
      event.preventDefault();
      return;
    }
    onClick?.(event);
  }
  return (
    <button
      type={type}
      className={[styles.button, styles[variant], wide ? styles.wide : '', className]
        .filter(Boolean)
        .join(' ')}
      aria-disabled={busy || undefined}
      data-busy={busy || undefined}
      onClick={handleClick}
      {...rest}
    >
      {busy ? (
        <>
          <Spinner /> <span>{busyLabel}</span>
        </>
      ) : (
        children
      )}
    </button>
  );
}
