/**
 * Creates the first admin account of the operator console, once (ADR 0021): never a default password, but a
 * one-time set-up link (24 hours) where the admin chooses their own, then enrols a second factor.
 *
 *   DATABASE_URL=… npm run operator:create-admin -- --email ada@example.com --name "Ada Lovelace" \
 *     [--base-url https://loans.example.com]
 *
 * Applies the system of record's migrations first (as the worker does), and refuses when any operator account
 * exists: later accounts are created by an admin in the console (`POST /api/v1/admin/accounts`).
 */
import { parseArgs } from 'node:util';
import { migrate, openDatabase } from '@funnel/db/database';
import { countAccounts } from '@funnel/db/operator-accounts';
import { createWithSetupLink } from '../apps/bff/src/admin/operator-accounts.js';

const { values } = parseArgs({
  options: {
    email: { type: 'string' },
    name: { type: 'string' },
    'base-url': { type: 'string', default: 'http://localhost:3000' },
  },
});
const url = process.env.DATABASE_URL;
if (!url || !values.email || !values.name) {
  console.error(
    'usage: DATABASE_URL=… operator:create-admin --email <email> --name <display name> [--base-url <site>]',
  );
  process.exit(2);
}
const db = openDatabase({ url, max: 1 });
try {
  await migrate(db);
  if ((await countAccounts(db)) > 0) {
    console.error('Operator accounts exist already: an admin creates new ones in the console (Accounts).');
    process.exitCode = 1;
  } else {
    const created = await createWithSetupLink(
      db,
      { email: values.email, displayName: values.name, role: 'admin' },
      Date.now(),
    );
    if (!created) throw new Error('the account could not be created');
    console.log(
      `Admin ${created.account.email} created. Open this link within 24 hours to choose a password:`,
    );
    console.log(`${values['base-url'].replace(/\/$/, '')}${created.setupPath}`);
  }
} finally {
  await db.destroy();
}
