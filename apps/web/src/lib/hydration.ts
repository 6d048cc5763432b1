import { startTransition, useEffect, useState } from 'react';

/**
 * Whether the app has taken over the page yet (docs/adr/0019-html-first-borrower-screens.md): false until the
 * effect of its first commit (`App`), which gives back what was typed before and then calls `markHydrated`.
 */
let hydrated = false;
/** Set by main.tsx right before `hydrateRoot`: renders until `markHydrated` must draw what the prerender drew. */
let hydrating = false;
let resolveHydrated: () => void = () => undefined;
const hydratedOnce = new Promise<void>((resolve) => (resolveHydrated = resolve));

export function startHydration(): void {
  hydrating = true;
}

/**
 * Notes that the app has the page, and says so on `<html data-hydrated>`: the browser tests (and anyone measuring)
 * wait for it before they type, as typing before it is what the early-input replay is for.
 */
export function markHydrated(): void {
  hydrated = true;
  hydrating = false;
  document.documentElement.dataset.hydrated = '';
  resolveHydrated();
}

/** Resolves once the app has the page (`markHydrated`). */
export function whenHydrated(): Promise<void> {
  return hydratedOnce;
}

/** True while React hydrates a page on which the visitor has already put focus in a field or a button. */
export function typingBeforeHydration(): boolean {
  const active = document.activeElement;
  return !hydrated && active !== null && active !== document.body && active.closest('form') !== null;
}

/**
 * False in the render that hydrates the prerendered page (and in the prerender itself), true soon after and in
 * every render that is not a hydration: what only the browser knows (the address's query, the history entry's
 * state) is drawn from then on, so the hydrating render matches the HTML. The switch is a transition of the
 * component's own state: only that component and what it draws render again, in slices. (A store read with
 * `useSyncExternalStore` and a server snapshot made React render the root layout's whole tree again at once, in
 * one long task, right after hydration.)
 */
export function useHydrated(): boolean {
  const [browserOnly, setBrowserOnly] = useState(() => typeof window !== 'undefined' && !hydrating);
  useEffect(() => {
    if (!browserOnly) startTransition(() => setBrowserOnly(true));
  }, [browserOnly]);
  return browserOnly;
}
