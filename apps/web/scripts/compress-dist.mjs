// Run after `vite build`: writes a Brotli (.br, quality 11) and a gzip (.gz, level 9) copy beside every text
// asset of dist/, so the BFF serves them pre-compressed (@fastify/static `preCompressed`) and compresses
// nothing per request. A copy that would not be smaller is not written.
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const dist = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../dist');
const TEXT = /\.(?:js|css|html|svg|json|txt)$/;

let written = 0;
for (const entry of readdirSync(dist, { recursive: true, withFileTypes: true })) {
  if (!entry.isFile() || !TEXT.test(entry.name)) continue;
  const file = path.join(entry.parentPath, entry.name);
  const content = readFileSync(file);
  const copies = {
    br: brotliCompressSync(content, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
    gz: gzipSync(content, { level: 9 }),
  };
  for (const [ext, compressed] of Object.entries(copies)) {
    if (compressed.length >= content.length) continue;
    writeFileSync(`${file}.${ext}`, compressed);
    written++;
  }
}
console.log(`Pre-compressed ${written} copies (.br, .gz) of the web app's text assets.`);
