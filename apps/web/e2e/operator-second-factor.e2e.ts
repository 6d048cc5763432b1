// The second factor an admin must enrol before the console opens (issue 40, points 6 and 11; ADR 0023): a
// strong password at set-up, the QR code to scan, ten recovery codes shown once, and a recovery code signing in
// instead of a lost phone's code. A real BFF on real Redis and PostgreSQL (a schema of this suite's own), in
// Chromium, at 375 and 1280 px, checked with axe; the TOTP set-up screenshotted at both widths.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Kysely } from 'kysely';
import { migrate, openDatabase, type Database } from '@funnel/db/database';
import { base32Decode, hotp, totpStep } from '@funnel/server-runtime/totp';
import { dropSchema, testDatabaseUrl, testSchema } from '@funnel/testing/postgres';
import { startHarness, type Harness } from './harness';
import { signInThroughPage } from './operator-accounts';
import { assertFitsBothWidths, collectPageErrors, screenshotBothWidths } from './page-checks';

const TOKEN = 'e2e-second-factor-token-'.padEnd(48, 'f');
const PASSWORD = 'seven tidal lanterns hum softly';
const schema = testSchema('factor_e2e');
let db: Kysely<Database>;
let harness: Harness;

before(async () => {
  db = openDatabase({ url: testDatabaseUrl(), schema });
  await migrate(db, schema);
  const url = `${testDatabaseUrl()}?options=${encodeURIComponent(`-c search_path=${schema}`)}`;
  harness = await startHarness({
    label: 'factor',
    bffEnv: { DATABASE_URL: url, ADMIN_API_TOKEN: TOKEN, OPERATOR_SECOND_FACTOR_ROLES: 'admin,manager' },
  });
});

after(async () => {
  await harness?.close();
  await db?.destroy();
  await dropSchema(schema);
});

test('a new admin must choose a strong password, then enrol a second factor by QR code before the console opens', async () => {
  const created = await fetch(`${harness.baseUrl}/api/v1/admin/accounts`, {
    method: 'POST',
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'ada@example.com', displayName: 'Ada', role: 'admin' }),
  });
  const { setupPath } = (await created.json()) as { setupPath: string };
  const context = await harness.newContext(1280);
  const page = await context.newPage();
  const errors = collectPageErrors(page);
  const requested: string[] = [];
  page.on('request', (request) => requested.push(request.url()));

  await page.goto(setupPath);
  await page.getByRole('heading', { name: 'Set up your account' }).waitFor();
  for (const weak of ['password1234', '123456789012']) {
    await page.getByLabel('New password').fill(weak);
    await page.getByLabel('The same password again').fill(weak);
    await page.getByRole('button', { name: 'Set password' }).click();
    await page.getByText('Use a longer phrase of several unrelated words.', { exact: false }).waitFor();
  }
  await page.getByLabel('New password').fill(PASSWORD);
  await page.getByLabel('The same password again').fill(PASSWORD);
  await page.getByRole('button', { name: 'Set password' }).click();
  await page.getByRole('link', { name: 'Sign in' }).click();
  await signInThroughPage(page, 'ada@example.com', PASSWORD);

  // Signed in, but only the Security page opens until the factor is on.
  await page.getByText('Your role needs a second factor: add one to open the console.').waitFor();
  assert.equal(await page.getByRole('navigation', { name: 'Console' }).count(), 0);
  const reports = await page.request.get('/api/v1/admin/reports/funnel?from=2026-11-01&to=2026-11-02');
  assert.equal(reports.status(), 403);

  await page.getByRole('button', { name: 'Add a second factor' }).click();
  const qr = page.getByRole('img', { name: 'QR image to scan with your authenticator app' });
  await qr.locator('svg').waitFor();
  const box = await qr.boundingBox();
  assert.ok(box && box.width >= 150, `the QR code is ${box?.width} px wide`);
  const secret = (await page.getByLabel('Key').innerText()).trim();
  assert.match(secret, /^[A-Z2-7]{32}$/);
  await assertFitsBothWidths(page, 'the TOTP set-up with its QR code');
  await screenshotBothWidths(page, 'operator-totp-setup');
  // The secret is on the screen only: in no URL the browser asked for, and in none of its storage.
  assert.ok(!requested.some((url) => url.includes(secret)), 'the secret went into a URL');
  const stored = await page.evaluate(() => JSON.stringify({ ...localStorage, ...sessionStorage }));
  assert.ok(!stored.includes(secret), 'the secret is in browser storage');
  assert.ok(!(await context.cookies()).some((c) => c.value.includes(secret)));

  await page.getByLabel('Code').fill(hotp(base32Decode(secret), totpStep(Date.now())));
  await page.getByRole('button', { name: 'Turn on' }).click();
  const codes = page.getByRole('heading', { name: 'Your recovery codes' }).locator('..').locator('li');
  await codes.first().waitFor();
  const recoveryCodes = (await codes.allInnerTexts()).map((c) => c.trim());
  assert.equal(recoveryCodes.length, 10);
  assert.ok(
    recoveryCodes.every((c) => /^[a-z2-7]{4}(-[a-z2-7]{4}){3}$/.test(c)),
    recoveryCodes.join(' '),
  );
  await assertFitsBothWidths(page, 'the recovery codes');
  await screenshotBothWidths(page, 'operator-recovery-codes');
  await page.getByRole('button', { name: 'I have saved them' }).click();
  await page.getByRole('navigation', { name: 'Console' }).waitFor();
  await page.getByRole('link', { name: 'Reports' }).click();
  await page.getByRole('heading', { name: 'Funnel and sales reports' }).waitFor();

  // A lost phone: a recovery code signs in instead of the app's code, once.
  await page.getByRole('button', { name: 'Sign out', exact: true }).click();
  await page.getByLabel('Code from your authenticator app').fill(recoveryCodes[3]!);
  await signInThroughPage(page, 'ada@example.com', PASSWORD);
  await page.getByRole('heading', { name: 'Funnel and sales reports' }).waitFor();
  await page.getByRole('button', { name: 'Sign out', exact: true }).click();
  await page.getByLabel('Code from your authenticator app').fill(recoveryCodes[3]!);
  await signInThroughPage(page, 'ada@example.com', PASSWORD);
  await page.getByText('That email, password or code is not right.', { exact: false }).waitFor();
  assert.deepEqual(errors, []);
  await context.close();
});
