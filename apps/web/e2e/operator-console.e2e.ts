// The operator console's accounts (issue 33, ADR 0021): a local sign-in with a TOTP second factor, a viewer who
// is neither offered nor allowed an admin's page, and an admin reading the audit log of what both did. A real BFF
// on real Redis and PostgreSQL (a schema of this suite's own), in Chromium, at 375 and 1280 px, checked with axe.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { after, before, test } from 'node:test';
import type { Kysely } from 'kysely';
import { migrate, openDatabase, type Database } from '@funnel/db/database';
import { base32Decode, hotp, totpStep } from '@funnel/server-runtime/totp';
import { dropSchema, testDatabaseUrl, testSchema } from '@funnel/testing/postgres';
import { startHarness, type Harness } from './harness';
import { createOperator, signInThroughPage } from './operator-accounts';
import { assertFitsBothWidths, collectPageErrors, screenshotBothWidths } from './page-checks';

const TOKEN = 'e2e-console-token-'.padEnd(48, 'c');
const schema = testSchema('console_e2e');
let db: Kysely<Database>;
let harness: Harness;
let viewerId: string;

before(async () => {
  db = openDatabase({ url: testDatabaseUrl(), schema });
  await migrate(db, schema);
  const url = `${testDatabaseUrl()}?options=${encodeURIComponent(`-c search_path=${schema}`)}`;
  harness = await startHarness({ label: 'console', bffEnv: { DATABASE_URL: url, ADMIN_API_TOKEN: TOKEN } });
  await createOperator(harness.baseUrl, TOKEN, 'ada@example.com', 'admin');
  viewerId = await createOperator(harness.baseUrl, TOKEN, 'vic@example.com', 'viewer');
  // An admin without a second factor, to read the audit log in the last test.
  await createOperator(harness.baseUrl, TOKEN, 'aud@example.com', 'admin');
});

after(async () => {
  await harness?.close();
  await db?.destroy();
  await dropSchema(schema);
});

test('a new operator opens their one-time set-up link, chooses a password, and signs in with it', async () => {
  const created = await fetch(`${harness.baseUrl}/api/v1/admin/accounts`, {
    method: 'POST',
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'neo@example.com', displayName: 'Neo', role: 'manager' }),
  });
  const { setupPath } = (await created.json()) as { setupPath: string };
  const context = await harness.newContext(375);
  const page = await context.newPage();
  const errors = collectPageErrors(page);
  await page.goto(setupPath);
  await page.getByRole('heading', { name: 'Set up your account' }).waitFor();
  await page.getByLabel('New password').fill('short');
  await page.getByLabel('The same password again').fill('short');
  await page.getByRole('button', { name: 'Set password' }).click();
  await page.getByText('Use at least 12 characters.').waitFor();
  await assertFitsBothWidths(page, 'the set-up page with an error');
  await page.getByLabel('New password').fill('a passphrase of my own');
  await page.getByLabel('The same password again').fill('a passphrase of my own');
  await page.getByRole('button', { name: 'Set password' }).click();
  await page.getByRole('link', { name: 'Sign in' }).click();
  await signInThroughPage(page, 'neo@example.com', 'a passphrase of my own');
  await page.getByRole('heading', { name: 'Funnel and sales reports' }).waitFor();
  // The link worked once.
  const again = await page.request.post('/api/v1/admin/account-setup', {
    data: { token: setupPath.split('#')[1], password: 'another passphrase entirely' },
  });
  assert.equal(again.status(), 400);
  assert.deepEqual(errors, []);
  await context.close();
});

test('an admin enrols a second factor, and from then on signs in with a code', async () => {
  const context = await harness.newContext(1280);
  const page = await context.newPage();
  const errors = collectPageErrors(page);
  await page.goto('/operator');
  await signInThroughPage(page, 'ada@example.com');
  await page.getByRole('heading', { name: 'Funnel and sales reports' }).waitFor();

  await page.getByRole('link', { name: 'Security' }).click();
  await page.getByRole('button', { name: 'Add a second factor' }).click();
  const secret = (await page.getByLabel('Key').innerText()).trim();
  assert.match(secret, /^[A-Z2-7]{32}$/);
  await assertFitsBothWidths(page, 'second-factor enrolment');
  await page.getByLabel('Code').fill(hotp(base32Decode(secret), totpStep(Date.now())));
  await page.getByRole('button', { name: 'Turn on' }).click();
  await page.getByRole('button', { name: 'I have saved them' }).click();
  await page.getByText('Sign-in asks for a code from your authenticator app.').waitFor();

  await page.getByRole('button', { name: 'Sign out', exact: true }).click();
  await signInThroughPage(page, 'ada@example.com');
  // Without the code, the same refusal as a wrong password (ADR 0023), and no session.
  await page.getByText('That email, password or code is not right.', { exact: false }).waitFor();
  const code = page.getByLabel('Code from your authenticator app');
  assert.equal(
    (await context.cookies(`${harness.baseUrl}/api/v1/admin/session`)).some(
      (c) => c.name === 'funnel_operator',
    ),
    false,
  );
  await assertFitsBothWidths(page, 'sign-in asking for a code');
  await screenshotBothWidths(page, 'operator-sign-in-code');
  // The enrolment's code was spent; the next step's is the one an app shows 30 seconds on.
  await code.fill(hotp(base32Decode(secret), totpStep(Date.now()) + 1));
  await page.getByRole('button', { name: 'Sign in' }).click();
  // Signed in again, on the page they signed out from.
  await page.getByRole('heading', { name: 'Security' }).waitFor();
  assert.ok(
    (await context.cookies(`${harness.baseUrl}/api/v1/admin/session`)).some(
      (c) => c.name === 'funnel_operator',
    ),
  );
  assert.deepEqual(errors, []);
  await context.close();
});

test('a viewer is not offered an admin page, and the BFF refuses it with 403', async () => {
  const context = await harness.newContext(375);
  const page = await context.newPage();
  await page.goto('/operator');
  await signInThroughPage(page, 'vic@example.com');
  await page.getByRole('heading', { name: 'Funnel and sales reports' }).waitFor();
  const nav = page.getByRole('navigation', { name: 'Console' });
  assert.deepEqual(await nav.getByRole('link').allInnerTexts(), ['Reports', 'Leads', 'Security']);

  // Typed into the address bar, the page loads, and the BFF's refusal is what it shows.
  await page.goto('/operator/accounts');
  const refusal = page.getByRole('alert');
  await refusal.waitFor();
  assert.equal((await refusal.innerText()).trim(), 'This needs the admin role; you are a viewer.');
  assert.equal(await page.getByRole('button', { name: 'Create account' }).count(), 0, 'the action is hidden');
  const attempt = await page.request.post('/api/v1/admin/accounts', {
    data: { email: 'mallory@example.com', displayName: 'Mallory', role: 'admin' },
  });
  assert.equal(attempt.status(), 403);
  assert.equal((await attempt.json()).error.code, 'FORBIDDEN');
  await assertFitsBothWidths(page, 'a viewer refused the accounts page');
  await context.close();
});

test("an admin reads the audit log: the viewer's refused attempts, filtered, and as CSV", async () => {
  const admin = await harness.newContext(1280);
  const consolePage = await admin.newPage();
  const errors = collectPageErrors(consolePage);
  await consolePage.goto('/operator');
  await signInThroughPage(consolePage, 'aud@example.com');
  await consolePage.getByRole('link', { name: 'Audit log' }).click();
  await consolePage.getByRole('heading', { name: 'Audit log' }).waitFor();
  await consolePage.getByLabel('Operator').selectOption(viewerId);
  await consolePage.getByRole('button', { name: 'Apply filters' }).click();
  const table = consolePage.getByRole('table', { name: 'Newest first; the log cannot be edited.' });
  await table.locator('tbody tr', { hasText: 'accounts.create' }).waitFor();
  const rows = await table
    .locator('tbody tr')
    .evaluateAll((trs) =>
      trs.map((tr) => [...tr.querySelectorAll('th, td')].map((c) => c.textContent!.trim())),
    );
  const actions = rows.map((cells) => `${cells[2]} ${cells[3]}`);
  assert.ok(actions.includes('accounts.create denied'), actions.join('; '));
  assert.ok(actions.includes('accounts.list denied'), actions.join('; '));
  assert.ok(actions.includes('reports.read allowed'), actions.join('; '));
  assert.ok(rows.every((cells) => cells[1] === 'vic@example.com'));
  await assertFitsBothWidths(consolePage, 'the audit log');
  await screenshotBothWidths(consolePage, 'operator-audit-log');

  const [file] = await Promise.all([
    consolePage.waitForEvent('download'),
    consolePage.getByRole('link', { name: 'Download CSV' }).click(),
  ]);
  const lines = (await readFile((await file.path())!, 'utf8')).trimEnd().split('\r\n');
  assert.match(lines[0]!, /^at,actor,account_id,action,outcome/);
  assert.ok(lines.slice(1).every((line) => line.includes(`,vic@example.com,${viewerId},`)));
  assert.ok(lines.some((line) => line.includes(',accounts.create,denied,')));
  // The Accounts page: the new account's one-time link, and a disabled viewer whose sessions end.
  await consolePage.getByRole('link', { name: 'Accounts' }).click();
  await consolePage.getByLabel('Email', { exact: true }).fill('new@example.com');
  await consolePage.getByLabel('Name', { exact: true }).fill('New Operator');
  await consolePage.getByLabel('Role', { exact: true }).selectOption('manager');
  await consolePage.getByRole('button', { name: 'Create account' }).click();
  const link = consolePage.getByRole('status');
  await link.waitFor();
  assert.match(await link.innerText(), /\/operator\/setup#[A-Za-z0-9_-]{43}/);
  await consolePage.getByRole('button', { name: 'Disable vic@example.com' }).click();
  await consolePage.getByRole('button', { name: 'Enable vic@example.com' }).waitFor();
  await assertFitsBothWidths(consolePage, 'the accounts page');
  assert.deepEqual(errors, []);
  await admin.close();
});
