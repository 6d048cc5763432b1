import { useSyncExternalStore } from 'react';

/**
 * Whether the app has taken over the page yet (docs/adr/0019-html-first-borrower-screens.md): false until the
 * effect of its first commit (`App`), which gives back what was typed before and then calls `markHydrated`.
 */
let hydrated = false;

/**
 * Notes that the app has the page, and says so on `<html data-hydrated>`: the browser tests (and anyone measuring)
 * wait for it before they type, as typing before it is what the early-input replay is for.
 */
export function markHydrated(): void {
  hydrated = true;
  document.documentElement.dataset.hydrated = '';
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
