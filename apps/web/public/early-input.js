/* global document, window, HTMLFormElement, requestAnimationFrame */
// Inlined (minified) into the head of every prerendered page by scripts/prerender.mjs, so the page fetches nothing
// before its first paint; the unprerendered shell (index.html) loads it async. See
// docs/adr/0019-html-first-borrower-screens.md.
//
// A prerendered page paints from its HTML and asks for no code itself: its tag lists the app's code (`data-app`:
// the entry, then every chunk the route needs), all asked for here once the page is painted (a few per task, each
// costs the main thread), so nothing the app needs competes with that paint and no chunk waits for another (no
// entry → router → lazy route waterfall).
// "Painted" is the browser's own word for it: two frames after the last largest-contentful-paint entry (they come
// once a frame is on screen; a larger element painted in a later frame brings another), or at once when the
// visitor starts to interact. A browser that reports no such entries loads the code after the first frame; a page
// that reports none (opened in a background tab) after 3 s.
//
// A borrower may type into the page and press Next before React has taken it over. The press is held here, not
// sent: a plain form submission would reach the server with nothing to answer it. Once the app is there it makes
// the same press again (src/app/early-input.ts); what was typed stays in the fields meanwhile.
const code = document.currentScript?.dataset.app?.split(' ') ?? [];

/**
 * How many chunks are asked for per task: each `modulepreload` added costs the main thread 0.5–3 ms (traced here:
 * six in one task took 16 ms).
 */
const PER_TASK = 2;

function loadApp() {
  const [entry, ...chunks] = code;
  // A few tags per task, the entry's script last: one insertion of them all was a long task of its own.
  const insert = (from) => {
    const tags = document.createDocumentFragment();
    for (const href of chunks.slice(from, from + PER_TASK)) {
      const link = document.createElement('link');
      link.rel = 'modulepreload';
      link.crossOrigin = '';
      link.href = href;
      tags.append(link);
    }
    if (from + PER_TASK >= chunks.length) {
      const script = document.createElement('script');
      script.type = 'module';
      script.crossOrigin = '';
      script.src = entry;
      tags.append(script);
    }
    document.head.append(tags);
    if (from + PER_TASK < chunks.length) setTimeout(insert, 0, from + PER_TASK);
  };
  insert(0);
}

let loaded = false;
function loadOnce() {
  if (loaded) return;
  loaded = true;
  loadApp();
}

/** Runs `then` after `frames` more frames have been rendered. */
function afterFrames(frames, then) {
  requestAnimationFrame(() => (frames > 1 ? afterFrames(frames - 1, then) : setTimeout(then, 0)));
}

if (code.length > 0) {
  const LCP = 'largest-contentful-paint';
  if (PerformanceObserver.supportedEntryTypes?.includes(LCP)) {
    let painted = 0;
    new PerformanceObserver(() => {
      const entry = ++painted;
      afterFrames(2, () => entry === painted && loadOnce());
    }).observe({ type: LCP, buffered: true });
  } else {
    afterFrames(1, loadOnce);
  }
  for (const type of ['keydown', 'pointerdown', 'touchstart', 'focusin']) {
    document.addEventListener(type, loadOnce, { capture: true, once: true, passive: true });
  }
  // A page opened in a background tab reports no paint: its code comes anyway.
  setTimeout(loadOnce, 3000);
}

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
