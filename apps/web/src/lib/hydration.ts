import { useSyncExternalStore } from 'react';

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

const subscribeToNothing = () => () => {};

/**
 * False in the render that hydrates the prerendered page (and in the prerender itself), true from the next render
 * on and in every render that is not a hydration: what only the browser knows (the address's query) is drawn
 * from then on, so the hydrating render matches the HTML.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribeToNothing,
    () => true,
    () => false,
  );
}
