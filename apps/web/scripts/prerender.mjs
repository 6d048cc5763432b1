// Run after both Vite builds (the browser's, then the prerender's SSR build): writes every borrower route as a
// page of real HTML (docs/adr/0019-html-first-borrower-screens.md). Each page is dist/index.html with the
// screen rendered into #root, `modulepreload` links for the route's own chunks, so the browser fetches the entry
// and the screen's code at once (no entry → router → lazy route waterfall), all at `fetchpriority="low"` (the page
// paints without them), and every stylesheet the page needs
// inlined in <style> (about 4 kB gzip): nothing blocks the first paint. Each inlined sheet keeps a `disabled`
// <link> (never fetched) so Vite's loader knows it is there and does not add it again on a later route. The BFF serves
// dist/html/<route>.html for /<route>, and dist/index.html for any other address: that shell (for `/`, which
// redirects to /start) gets /start's links too.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

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

/** The `<link>`s for `pathname`'s own chunks and stylesheets that the shell does not already have. */
function linksFor(pathname, { inlineStyles, priority = '' }) {
  const { scripts, styles } = assetsOf(routeSources(pathname));
  return [
    ...[...styles]
      .filter((file) => !template.includes(file))
      .map((file) => (inlineStyles ? inline(file) : `<link rel="stylesheet" href="/${file}">`)),
    ...[...scripts]
      .filter((file) => !template.includes(file))
      .map((file) => `<link rel="modulepreload" crossorigin ${priority}href="/${file}">`),
  ].join('');
}

/** The shell's own stylesheets (the entry's), inlined in place so the cascade keeps its order. */
const LOW = 'fetchpriority="low" ';
const inlinedShell = template
  .replace(STYLESHEET, (_, file) => inline(file))
  // The page paints without its code, so the code is not urgent: at low priority it never competes with the
  // HTML's own paint (and Lighthouse's simulation no longer counts it as blocking the first contentful paint).
  .replace(/<script type="module" crossorigin /g, `$&${LOW}`)
  .replace(/<link rel="modulepreload" crossorigin /g, `$&${LOW}`);
if (!inlinedShell.includes(`<script type="module" crossorigin ${LOW}`)) {
  throw new Error('dist/index.html has no module script: has Vite changed its tags?');
}

const paths = prerenderedPaths();
for (const pathname of paths) {
  const body = await render(pathname);
  const links = linksFor(pathname, { inlineStyles: true, priority: LOW });
  // The screen's <title> (React leaves it where it was rendered) goes to the head, in place of the shell's.
  const title = /^<title>.*?<\/title>/.exec(body)?.[0];
  const page = inlinedShell
    .replace(/<title>.*?<\/title>/, (shell) => title ?? shell)
    .replace('</head>', `${links}</head>`)
    .replace(ROOT, () => `<div id="root">${title ? body.slice(title.length) : body}</div>`);
  writeFileSync(path.join(out, `${pathname.slice(1)}.html`), page);
}
writeFileSync(
  path.join(dist, 'index.html'),
  template.replace('</head>', `${MARK}${linksFor('/start', { inlineStyles: false })}</head>`),
);
console.log(`Prerendered ${paths.length} pages to dist/html/.`);
