import { existsSync } from 'node:fs';
import path from 'node:path';
import fp from 'fastify-plugin';
import fastifyStatic from '@fastify/static';
import { HttpError } from '../http-error.js';

// A content-hashed build output, or its pre-compressed copy ('index-Bq3v9XkZ.js', 'index-Bq3v9XkZ.js.br').
const HASHED_ASSET = /\/assets\/.+-[A-Za-z0-9_-]{8,}\.\w+(?:\.(?:br|gz))?$/;

/**
 * Serves the built web app, pre-compressed (Brotli or gzip, as the browser accepts): hashed assets cached for a
 * year as immutable, everything else revalidated, and
 * `index.html` for any other GET outside /api so client-side routes survive a reload.
 */
export default fp<{ distDir: string }>(
  async (app, { distDir }) => {
    const root = path.resolve(distDir);
    if (!existsSync(path.join(root, 'index.html'))) {
      app.log.warn({ distDir: root }, 'web app not built: only the API is served');
      return;
    }
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
      return reply.header('cache-control', 'no-cache').sendFile('index.html');
    });
  },
  { name: 'web-app' },
);
