/* global document, window, HTMLFormElement, requestAnimationFrame */
// Loaded (async) by every page ahead of the app (docs/adr/0019-html-first-borrower-screens.md).
//
// A prerendered page paints from its HTML and asks for no code itself: its tag lists the app's code (`data-app`:
// the entry, then every chunk the route needs), fetched here all at once after the first paint, so nothing the
// app needs competes with that paint and no chunk waits for another (no entry → router → lazy route waterfall).
//
// A borrower may type into the page and press Next before React has taken it over. The press is held here, not
// sent: a plain form submission would reach the server with nothing to answer it. Once the app is there it makes
// the same press again (src/app/early-input.ts); what was typed stays in the fields meanwhile.
const code = document.currentScript?.dataset.app?.split(' ') ?? [];

function loadApp() {
  const [entry, ...chunks] = code;
  for (const href of chunks) {
    const link = document.createElement('link');
    link.rel = 'modulepreload';
    link.crossOrigin = '';
    link.href = href;
    document.head.append(link);
  }
  const script = document.createElement('script');
  script.type = 'module';
  script.crossOrigin = '';
  script.src = entry;
  document.head.append(script);
}

// After the next frame has been painted (a timeout queued from an animation frame runs once that frame is out).
if (code.length > 0) requestAnimationFrame(() => setTimeout(loadApp, 0));

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
