const CONTROL = 'input, select, textarea, button';

/**
 * Moves focus to the first control marked invalid inside `container`; for an invalid group (radio cards, a date
 * grid) to its chosen or focusable member. Used after a refused submit, so the visitor lands on what to fix.
 */
export function focusFirstInvalid(container: HTMLElement | null): void {
  const invalid = container?.querySelector<HTMLElement>('[aria-invalid="true"]');
  if (!invalid) return;
  const target = invalid.matches(CONTROL)
    ? invalid
    : (invalid.querySelector<HTMLElement>('input:checked, [tabindex="0"]') ??
      invalid.querySelector<HTMLElement>(CONTROL));
  target?.focus();
}
