import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import fp from 'fastify-plugin';
import fastifyStatic from '@fastify/static';
import { HttpError } from '../http-error.js';

// A content-hashed build output, or its pre-compressed copy ('index-Bq3v9XkZ.js', 'index-Bq3v9XkZ.js.br').
const HASHED_ASSET = /\/assets\/.+-[A-Za-z0-9_-]{8,}\.\w+(?:\.(?:br|gz))?$/;

const SCRIPT_HASH = /^'sha256-[A-Za-z0-9+/]{43}='$/;

/**
 * The hashes of the inline scripts in the built pages (early-input.js, inlined so a page fetches nothing before
 * its first paint), which the CSP must allow: apps/web/scripts/prerender.mjs writes them to `csp.json`. None for a
 * build without it (the web app not built, or built without prerendering).
 */
export function webPageScriptHashes(distDir: string): string[] {
  const file = path.join(path.resolve(distDir), 'csp.json');
  if (!existsSync(file)) return [];
  const { scriptSrc } = JSON.parse(readFileSync(file, 'utf8')) as { scriptSrc?: unknown };
  if (!Array.isArray(scriptSrc) || !scriptSrc.every((source) => SCRIPT_HASH.test(String(source))))
    throw new Error(`${file} must list script hashes as 'sha256-<base64>'`);
  return scriptSrc as string[];
}

/**
 * Serves the built web app, pre-compressed (Brotli or gzip, as the browser accepts): hashed assets cached for a
 * year as immutable, everything else revalidated (`no-cache`, with an ETag). A borrower route's page is its
 * prerendered HTML (`html/<route>.html`, docs/adr/0019-html-first-borrower-screens.md); any other GET outside /api
 * gets `index.html`, so client-side routes survive a reload.
 */
export default fp<{ distDir: string }>(
  async (app, { distDir }) => {
    const root = path.resolve(distDir);
    if (!existsSync(path.join(root, 'index.html'))) {
      app.log.warn({ distDir: root }, 'web app not built: only the API is served');
      return;
    }
    const htmlDir = path.join(root, 'html');
    const prerendered = new Set(
      existsSync(htmlDir)
        ? readdirSync(htmlDir)
            .filter((file) => file.endsWith('.html'))
            .map((file) => `/${file.slice(0, -'.html'.length)}`)
        : [],
    );
    await app.register(fastifyStatic, {
      root,
      wildcard: false,
      index: false,
      // The web build writes .br and .gz copies beside each asset (apps/web/scripts/compress-dist.mjs).
      preCompressed: true,
      cacheControl: false,
      setHeaders(reply, filePath) {
        // The same URL answers Brotli, gzip or plain bytes: caches in between must key on Accept-Encoding.
        reply.header('vary', 'accept-encoding');
        reply.header(
          'cache-control',
          HASHED_ASSET.test(filePath.split(path.sep).join('/'))
            ? 'public, max-age=31536000, immutable'
            : 'no-cache',
        );
      },
    });
    app.get('/*', { schema: { hide: true } }, (request, reply) => {
      if (request.url.startsWith('/api/') || request.url === '/api')
        throw new HttpError(404, 'NOT_FOUND', 'Not found.');
      const pathname = request.url.split('?', 1)[0] as string;
      const page = prerendered.has(pathname) ? `html${pathname}.html` : 'index.html';
      return reply.header('cache-control', 'no-cache').sendFile(page);
    });
  },
  { name: 'web-app' },
);
