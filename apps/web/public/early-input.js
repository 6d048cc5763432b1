/* global document, window, HTMLFormElement */
// Loaded (async) by every page ahead of the app (docs/adr/0019-html-first-borrower-screens.md). A borrower may
// type into the prerendered page and press Next before React has taken it over. The press is held here, not
// sent: a plain form submission would reach the server with nothing to answer it. Once the app is there it makes
// the same press again (src/app/early-input.ts); what was typed stays in the fields meanwhile.
document.addEventListener(
  'submit',
  (event) => {
    // Once the app has started hydrating, React holds and replays presses itself.
    if (window.__appStarted || !(event.target instanceof HTMLFormElement)) return;
    event.preventDefault();
    window.__earlySubmit = event.target;
  },
  true,
);
