import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './test-app.js';

const INDEX = '<!doctype html><html lang="en"><title>Loans</title><div id="root"></div></html>';
const SCRIPT = `console.log(${JSON.stringify('x'.repeat(2000))});`;
const ASSET = '/assets/index-Bq3v9XkZ.js';
/** A route prerendered by apps/web/scripts/prerender.mjs (docs/adr/0019-html-first-borrower-screens.md). */
const EMAIL_PAGE =
  '<!doctype html><html lang="en"><title>Email</title><div id="root"><h1>Email</h1></div></html>';
/** The script the prerender inlines into each page, and the hash it writes to csp.json for the CSP. */
const INLINE_SCRIPT = 'document.documentElement.dataset.early = "";';
const INLINE_HASH = `'sha256-${createHash('sha256').update(INLINE_SCRIPT).digest('base64')}'`;

describe('the web app as the BFF serves it', () => {
  let t: TestApp;
  let dist: string;

  beforeAll(async () => {
    // A built web app as `vite build` + scripts/compress-dist.mjs leave it: each file with .br and .gz beside it.
    dist = mkdtempSync(path.join(tmpdir(), 'web-dist-'));
    mkdirSync(path.join(dist, 'assets'));
    mkdirSync(path.join(dist, 'html'));
    for (const [file, content] of [
      ['index.html', INDEX],
      [ASSET.slice(1), SCRIPT],
      ['html/email.html', EMAIL_PAGE],
    ] as const) {
      writeFileSync(path.join(dist, file), content);
      writeFileSync(path.join(dist, `${file}.br`), brotliCompressSync(content));
      writeFileSync(path.join(dist, `${file}.gz`), gzipSync(content));
    }
    writeFileSync(path.join(dist, 'csp.json'), JSON.stringify({ scriptSrc: [INLINE_HASH] }));
    t = await startTestApp({ env: { WEB_DIST_DIR: dist } });
  });

  afterAll(async () => {
    await t.close();
    rmSync(dist, { recursive: true, force: true });
  });

  it('sends a hashed asset Brotli-compressed to a browser that accepts it, cached as immutable', async () => {
    const response = await t.app.inject({ url: ASSET, headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBe('br');
    expect(response.headers.vary).toMatch(/accept-encoding/i);
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(response.headers['content-type']).toMatch(/javascript/);
    expect(brotliDecompressSync(response.rawPayload).toString()).toBe(SCRIPT);
  });

  it('falls back to gzip, then to the plain file', async () => {
    const gzip = await t.app.inject({ url: ASSET, headers: { 'accept-encoding': 'gzip' } });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.rawPayload).toString()).toBe(SCRIPT);

    const plain = await t.app.inject({ url: ASSET, headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(SCRIPT);
  });

  it('answers a client-side route with index.html, compressed and revalidated', async () => {
    const response = await t.app.inject({ url: '/lgname', headers: { 'accept-encoding': 'br' } });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBe('br');
    expect(response.headers['cache-control']).toBe('no-cache');
    expect(brotliDecompressSync(response.rawPayload).toString()).toBe(INDEX);
  });

  it('answers a prerendered route with its own page, revalidated by ETag', async () => {
    const response = await t.app.inject({
      url: '/email?utm_source=ad',
      headers: { 'accept-encoding': 'br' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-cache');
    expect(brotliDecompressSync(response.rawPayload).toString()).toBe(EMAIL_PAGE);
    const etag = response.headers.etag;
    expect(etag).toEqual(expect.any(String));

    const again = await t.app.inject({
      url: '/email',
      headers: { 'accept-encoding': 'br', 'if-none-match': String(etag) },
    });
    expect(again.statusCode).toBe(304);
    expect(again.rawPayload.length).toBe(0);

    // Only the routes that were prerendered: the file's own name or any other address is not one.
    const other = await t.app.inject({ url: '/email-step', headers: { 'accept-encoding': 'identity' } });
    expect(other.body).toBe(INDEX);
  });

  it("allows the pages' inline script by its hash, and no other inline script", async () => {
    const response = await t.app.inject({ url: '/email', headers: { 'accept-encoding': 'identity' } });
    const scriptSrc = /(?:^|;)\s*script-src ([^;]*)/.exec(
      String(response.headers['content-security-policy']),
    )?.[1];
    expect(scriptSrc?.split(' ')).toEqual(["'self'", INLINE_HASH]);
  });

  it('refuses to start on a csp.json that lists anything but script hashes', async () => {
    writeFileSync(path.join(dist, 'csp.json'), JSON.stringify({ scriptSrc: ["'unsafe-inline'"] }));
    try {
      await expect(startTestApp({ env: { WEB_DIST_DIR: dist } })).rejects.toThrow(/script hashes/);
    } finally {
      writeFileSync(path.join(dist, 'csp.json'), JSON.stringify({ scriptSrc: [INLINE_HASH] }));
    }
  });
});
