// Development secrets for local runs: generated once, kept in .data/dev-secrets.json so leads stay readable
// across restarts. Production never uses this file: the apps refuse to start without configured secrets.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export function devSecrets(dataDir) {
  const file = path.join(dataDir, 'dev-secrets.json');
  if (existsSync(file)) return { secrets: JSON.parse(readFileSync(file, 'utf8')), created: false, file };
  mkdirSync(dataDir, { recursive: true });
  const secrets = {
    FIELD_ENCRYPTION_KEYS: `dev1:${randomBytes(32).toString('base64')}`,
    COOKIE_SECRETS: randomBytes(32).toString('hex'),
  };
  writeFileSync(file, JSON.stringify(secrets, null, 2), { mode: 0o600 });
  return { secrets, created: true, file };
}
