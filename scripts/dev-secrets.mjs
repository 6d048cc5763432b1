// Development secrets for local runs: generated once, kept in .data/dev-secrets.json so leads and the privacy
// suppression list stay readable across restarts. A secret added to the product later is generated into an
// existing file the first time it is missing. Production never uses this file: the apps refuse to start
// without configured secrets.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const GENERATORS = {
  FIELD_ENCRYPTION_KEYS: () => `dev1:${randomBytes(32).toString('base64')}`,
  COOKIE_SECRETS: () => randomBytes(32).toString('hex'),
  SUPPRESSION_HASH_SECRET: () => randomBytes(32).toString('hex'),
};

export function devSecrets(dataDir) {
  const file = path.join(dataDir, 'dev-secrets.json');
  const secrets = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {};
  let created = false;
  for (const [name, generate] of Object.entries(GENERATORS)) {
    if (secrets[name]) continue;
    secrets[name] = generate();
    created = true;
  }
  if (created) {
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(file, JSON.stringify(secrets, null, 2), { mode: 0o600 });
  }
  return { secrets, created, file };
}
