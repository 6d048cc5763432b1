// Run after both Vite builds (the browser's, then the prerender's SSR build): writes every borrower route as a
// page of real HTML (docs/adr/0019-html-first-borrower-screens.md). Each page is dist/index.html with the screen
// rendered into #root and every stylesheet the page needs inlined in <style> (about 4 kB gzip): nothing blocks the
// first paint, and nothing is fetched before it but the page itself (public/early-input.js and the favicon are
// inlined too; Lighthouse counts every request started before the largest paint as holding that paint up). Each
// inlined sheet keeps a `disabled` <link> (never fetched) so Vite's loader knows it is there and does not add it
// again on a later route. The page asks for no code itself: early-input.js, inlined, fetches the
// entry and every chunk of the route at once (no entry → router → lazy route waterfall) after the first paint,
// from the list this script writes on its tag, so the code never competes with the paint. The BFF serves
// dist/html/<route>.html for /<route>, and dist/index.html for any other address: that shell (for `/`, which
// redirects to /start, and the operator page) paints nothing without its code, so it loads it at once, with
// /start's chunks preloaded. The CSP allows the inlined script by its hash, which this script writes to
// dist/csp.json for the BFF (apps/bff/src/plugins/web-app.ts).
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { minifySync } from 'vite';

const web = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = path.join(web, 'dist');
const prerenderDir = path.join(web, 'node_modules/.cache/prerender');
const ROOT = '<div id="root"></div>';

const template = readFileSync(path.join(dist, 'index.html'), 'utf8');
// index.html is rewritten below; a second run must start from Vite's own.
const MARK = '<!-- routes prerendered to html/ -->';
if (template.includes(MARK))
  throw new Error('dist/index.html is already prerendered: run `vite build` first');
if (!template.includes(ROOT)) throw new Error(`dist/index.html has no empty ${ROOT} to render into`);
const manifest = JSON.parse(readFileSync(path.join(dist, '.vite/manifest.json'), 'utf8'));
const { render, prerenderedPaths, routeSources } = await import(
  pathToFileURL(path.join(prerenderDir, 'entry-prerender.js')).href
);

/** A route's chunks (the module and what it imports statically) and their stylesheets. */
function assetsOf(sources) {
  const scripts = new Set();
  const styles = new Set();
  const visit = (key) => {
    const chunk = manifest[key];
    if (!chunk)
      throw new Error(`The Vite manifest has no ${key}: is the route's source in router.tsx right?`);
    if (scripts.has(chunk.file)) return;
    scripts.add(chunk.file);
    for (const css of chunk.css ?? []) styles.add(css);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  sources.forEach(visit);
  return { scripts, styles };
}

const out = path.join(dist, 'html');
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
const STYLESHEET = /<link rel="stylesheet"[^>]* href="\/(assets\/[^"]+\.css)">/g;
if (!STYLESHEET.test(template))
  throw new Error('dist/index.html links no stylesheet: has Vite changed its tags?');

/** A stylesheet inlined, with the inert link that tells Vite's loader it is on the page. */
const inline = (file) =>
  `<style>${readFileSync(path.join(dist, file), 'utf8').replaceAll('</style', '<\\/style')}</style>` +
  `<link rel="stylesheet" href="/${file}" disabled>`;

/** `pathname`'s own stylesheets and chunks that the shell does not already have. */
function ownAssets(pathname) {
  const { scripts, styles } = assetsOf(routeSources(pathname));
  return {
    styles: [...styles].filter((file) => !template.includes(file)),
    scripts: [...scripts].filter((file) => !template.includes(file)),
  };
}

const MODULE_SCRIPT = /<script type="module" crossorigin src="\/(assets\/[^"]+\.js)"><\/script>\s*/;
const MODULE_PRELOAD = /<link rel="modulepreload" crossorigin href="\/(assets\/[^"]+\.js)">\s*/g;
const EARLY_INPUT = '<script async src="/early-input.js"></script>';
const FAVICON = /<link rel="icon" type="image\/svg\+xml" href="\/favicon\.svg"\s*\/?>/;
const entryFile = MODULE_SCRIPT.exec(template)?.[1];
if (!entryFile || !template.includes(EARLY_INPUT) || !FAVICON.test(template))
  throw new Error(
    'dist/index.html lacks the module script, early-input.js or the favicon: has Vite changed its tags?',
  );
const shellPreloads = [...template.matchAll(MODULE_PRELOAD)].map((match) => match[1]);

// early-input.js minified into each page, and allowed by the CSP by its hash (the same bytes on every page).
const earlyInput = minifySync(
  'early-input.js',
  readFileSync(path.join(dist, 'early-input.js'), 'utf8'),
).code.trim();
if (/<\/script/i.test(earlyInput)) throw new Error('early-input.js cannot be inlined: it contains </script');
const earlyInputHash = `'sha256-${createHash('sha256').update(earlyInput).digest('base64')}'`;
writeFileSync(path.join(dist, 'csp.json'), `${JSON.stringify({ scriptSrc: [earlyInputHash] }, null, 2)}\n`);
const favicon = `data:image/svg+xml,${encodeURIComponent(readFileSync(path.join(dist, 'favicon.svg'), 'utf8').trim())}`;

/**
 * The shell's stylesheets (the entry's) inlined in place so the cascade keeps its order, and its code taken out of
 * the page: early-input.js loads it after the first paint, with the route's own chunks (`data-app`, entry first).
 */
function pageShell(routeScripts) {
  const code = [entryFile, ...shellPreloads, ...routeScripts].map((file) => `/${file}`).join(' ');
  return template
    .replace(STYLESHEET, (_, file) => inline(file))
    .replace(MODULE_SCRIPT, '')
    .replace(MODULE_PRELOAD, '')
    .replace(FAVICON, `<link rel="icon" type="image/svg+xml" href="${favicon}">`)
    .replace(EARLY_INPUT, () => `<script data-app="${code}">${earlyInput}</script>`);
}

const paths = prerenderedPaths();
for (const pathname of paths) {
  const body = await render(pathname);
  const { styles, scripts } = ownAssets(pathname);
  // The screen's <title> (React leaves it where it was rendered) goes to the head, in place of the shell's.
  const title = /^<title>.*?<\/title>/.exec(body)?.[0];
  const page = pageShell(scripts)
    .replace(/<title>.*?<\/title>/, (shell) => title ?? shell)
    .replace('</head>', `${styles.map(inline).join('')}</head>`)
    .replace(ROOT, () => `<div id="root">${title ? body.slice(title.length) : body}</div>`);
  writeFileSync(path.join(out, `${pathname.slice(1)}.html`), page);
}
const start = ownAssets('/start');
const startLinks = [
  ...start.styles.map((file) => `<link rel="stylesheet" href="/${file}">`),
  ...start.scripts.map((file) => `<link rel="modulepreload" crossorigin href="/${file}">`),
].join('');
writeFileSync(path.join(dist, 'index.html'), template.replace('</head>', `${MARK}${startLinks}</head>`));
console.log(`Prerendered ${paths.length} pages to dist/html/.`);
