/**
 * `.env.example` is the operator's list of settings, and docker-compose hands that one file to every app: every
 * variable an app's `src/env.ts` reads (the sandbox's too) must be in it.
 */
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../../', import.meta.url));

it('lists every variable the apps read in .env.example', () => {
  const listed = new Set(
    [...readFileSync(path.join(root, '.env.example'), 'utf8').matchAll(/^([A-Z][A-Z0-9_]*)=/gm)].map(
      (m) => m[1],
    ),
  );
  const read = new Set<string>();
  for (const app of readdirSync(path.join(root, 'apps'))) {
    let source: string;
    try {
      source = readFileSync(path.join(root, 'apps', app, 'src/env.ts'), 'utf8');
    } catch {
      continue;
    }
    // Schema keys (`  NAME: z…`) and the sandbox's outcome keys (`'SANDBOX_…'`).
    for (const m of source.matchAll(/^\s+([A-Z][A-Z0-9_]+):|'(SANDBOX_[A-Z0-9_]+)'/gm))
      read.add(m[1] ?? m[2]!);
  }
  expect(read.size).toBeGreaterThan(80);
  expect([...read].filter((name) => !listed.has(name))).toEqual([]);
});
