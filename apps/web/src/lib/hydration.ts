/**
 * Whether the app has taken over the prerendered page yet (docs/adr/0019-html-first-borrower-screens.md): false
 * until the first commit of the hydrating render is over (the root layout's effect, `markHydrated`).
 */
let hydrated = false;

export function markHydrated(): void {
  hydrated = true;
}

/** True while React hydrates a page on which the visitor has already put focus in a field or a button. */
export function typingBeforeHydration(): boolean {
  const active = document.activeElement;
  return !hydrated && active !== null && active !== document.body && active.closest('form') !== null;
}
