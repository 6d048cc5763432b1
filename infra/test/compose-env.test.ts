/**
 * docker-compose hands each app container exactly the settings its own `src/env.ts` reads, and no other: a new
 * setting an app reads must be listed for its container, and a container never receives another app's secrets
 * (the lender sandbox none at all). The compose test checks the running containers' environments too.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

const root = fileURLToPath(new URL('../../', import.meta.url));
const read = (file: string) => readFileSync(path.join(root, file), 'utf8');

/** The setting names a schema file declares (`  NAME: z…`), and the sandbox's outcome keys (`'SANDBOX_…'`). */
function settingsIn(...files: string[]): Set<string> {
  const names = new Set<string>();
  for (const file of files) {
    for (const m of read(file).matchAll(/^\s+([A-Z][A-Z0-9_]+):|'(SANDBOX_[A-Z0-9_]+)'/gm))
      names.add(m[1] ?? m[2]!);
  }
  return names;
}

const shared = ['packages/server-runtime/src/env-fields.ts', 'packages/lead-store/src/env-fields.ts'];
const APPS = {
  bff: settingsIn('apps/bff/src/env.ts', ...shared),
  worker: settingsIn('apps/worker/src/env.ts', ...shared),
  'lender-sandbox': settingsIn('apps/lender-sandbox/src/env.ts'),
};
const compose = parse(read('docker-compose.yml'), { merge: true }) as {
  services: Record<string, { environment?: Record<string, unknown>; env_file?: unknown }>;
};

describe('docker-compose: each container gets its own settings', () => {
  it.each(Object.entries(APPS))('%s gets exactly the settings its env.ts reads', (service, reads) => {
    const definition = compose.services[service]!;
    expect(definition.env_file).toBeUndefined();
    const given = Object.keys(definition.environment ?? {});
    expect(given.filter((name) => !reads.has(name)).sort()).toEqual([]);
    expect([...reads].filter((name) => !given.includes(name)).sort()).toEqual([]);
  });

  it("gives the sandbox no secret, and the worker none of the BFF's own", () => {
    const environmentOf = (service: string) => Object.keys(compose.services[service]!.environment ?? {});
    expect(environmentOf('lender-sandbox').filter((name) => /KEY|SECRET|PASSWORD|TOKEN/.test(name))).toEqual(
      [],
    );
    for (const bffOnly of ['COOKIE_SECRETS', 'ADMIN_API_TOKEN', 'OIDC_CLIENT_SECRET', 'PARTNER_API_KEYS'])
      expect(environmentOf('worker')).not.toContain(bffOnly);
  });
});
