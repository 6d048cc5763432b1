// The integration tests .ci/run's step 2 runs again on the fallbacks (the private redis-server and PGlite, with
// nothing reachable but the loopback): those the fallbacks can change. A file that reaches PostgreSQL (through
// @funnel/testing/postgres or a database URL) runs there on PGlite, which `npm start` uses by default and whose SQL
// must match PostgreSQL's; the storage layer's own tests (packages/lead-store: its scripts, retention and erasure
// on disk) meet the private redis-server's configuration (no persistence, a port of its own). The other
// integration tests use Redis through that layer alone, the same server software either way: step 1 ran them
// (ADR 0027).
// `node scripts/fallback-files.mjs` prints one file per line.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const REACHES_POSTGRES = /@funnel\/testing\/postgres|databaseUrl|DATABASE_URL/;
const STORAGE_LAYER = /^packages\/lead-store\//;

/** The repository's integration test files the fallback run takes, relative to `root`. */
export function fallbackFiles(root) {
  const files = execFileSync('git', ['ls-files', '*.int.test.ts'], { cwd: root, encoding: 'utf8' })
    .split('\n')
    .filter(Boolean);
  return files.filter(
    (file) => STORAGE_LAYER.test(file) || REACHES_POSTGRES.test(readFileSync(path.join(root, file), 'utf8')),
  );
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  console.log(fallbackFiles(root).join('\n'));
}
