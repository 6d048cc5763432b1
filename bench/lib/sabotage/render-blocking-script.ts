// A bad build for lighthouse (BENCH_SABOTAGE=lighthouse), made on a copy of the built web app: every page of the
// app loads a large classic script in <head>, as a legacy vendor bundle added to the template would. The page
// cannot paint before the script has come down and run (1 MB: an asset of 768 KiB of random bytes inlined as
// base64), and shortly after the page has loaded its set-up holds the main thread for 250 ms in one task.
import { randomBytes } from 'node:crypto';
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';

const SCRIPT = 'legacy-vendor.js';
/** Random bytes, so no compression on the way shrinks the download. */
const INLINED_ASSET_BYTES = 768 * 1024;
/** Observed main-thread time of the set-up task (Lighthouse's mobile simulation multiplies it by 4). */
const SET_UP_MS = 250;
/** After load, so the task comes after the first paint in the observed run too (lib/thread-time-tbt.ts). */
const SET_UP_DELAY_MS = 100;

/**
 * Writes the legacy bundle into `webDir` and a render-blocking `<script src>` for it before `</head>` into the
 * app's pages (`index.html` and the prerendered `html/*.html`, with their `.br` and `.gz` copies, which the BFF
 * serves first); any other page in `webDir` (a benchmark's baseline) stays as it is.
 */
export function addRenderBlockingScript(webDir: string): void {
  writeFileSync(
    path.join(webDir, SCRIPT),
    [
      `var legacyVendorAsset = '${randomBytes(INLINED_ASSET_BYTES).toString('base64')}';`,
      `addEventListener('load', function () {`,
      `  setTimeout(function () {`,
      `    for (var end = performance.now() + ${SET_UP_MS}; performance.now() < end; );`,
      `  }, ${SET_UP_DELAY_MS});`,
      `});`,
      '',
    ].join('\n'),
  );
  const htmlDir = path.join(webDir, 'html');
  const pages = [
    path.join(webDir, 'index.html'),
    ...readdirSync(htmlDir)
      .filter((file) => file.endsWith('.html'))
      .map((file) => path.join(htmlDir, file)),
  ];
  for (const page of pages) {
    const html = readFileSync(page, 'utf8');
    if (!html.includes('</head>')) throw new Error(`${page} has no </head>`);
    const bad = Buffer.from(html.replace('</head>', `<script src="/${SCRIPT}"></script></head>`));
    writeFileSync(page, bad);
    writeFileSync(`${page}.br`, brotliCompressSync(bad));
    writeFileSync(`${page}.gz`, gzipSync(bad, { level: 9 }));
  }
}
