import { startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { App } from '@/app/app';
import { startHydrationQueries } from '@/app/hydration-queries';
import { createRouter, loadRoutesFor } from '@/app/router';
import { startHydration } from '@/lib/hydration';
import { nextTask } from '@/lib/next-task';
import { createQueryClient } from '@/lib/query-client';
import '@/styles/global.css';

const container = document.getElementById('root');
if (!container) throw new Error('index.html lacks the #root element');

const queryClient = createQueryClient();

function app(router = createRouter()) {
  return (
    <App queryClient={queryClient}>
      <RouterProvider router={router} />
    </App>
  );
}

// A prerendered page (every borrower screen, docs/adr/0019-html-first-borrower-screens.md) already shows its
// screen: its route's code (preloaded by the page) is resolved first, so the first render hydrates that HTML
// instead of showing the loading fallback. Any other address gets the empty shell and renders from scratch.
// (No top-level await here: it made Rolldown split the entry's shared modules into ~15 small chunks, +4 kB gzip.)
if (container.firstElementChild === null) {
  createRoot(container).render(app());
} else {
  // A chunk that failed to download (a release replaced it) still hydrates: the router then loads the route
  // itself, shows its error screen if it must, and React redraws what differs instead of leaving a dead page.
  // Each step runs in a task of its own, so none is long: this module's imports (the framework) are evaluated
  // in the first, the route's chunk in the next, then the router is made and the first render's requests are
  // started (app/hydration-queries.ts), then React starts hydrating.
  void nextTask()
    .then(() => loadRoutesFor(window.location.pathname))
    .catch(() => undefined)
    .then(nextTask)
    .then(() => {
      const router = createRouter();
      startHydrationQueries(queryClient, window.location);
      return nextTask().then(() => router);
    })
    .then((router) => {
      // From here React holds and replays presses itself (public/early-input.js stops holding them).
      window.__appStarted = true;
      startHydration();
      // As a transition, React hydrates in slices of a few milliseconds and lets the browser run in between,
      // instead of one long task; a key pressed meanwhile makes it finish at once (React hydrates for the event).
      startTransition(() => {
        hydrateRoot(container, app(router));
      });
    });
}
