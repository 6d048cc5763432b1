// The console's sign-in through the organisation's identity provider (issue 33, ADR 0021), end to end: a real
// OpenID Provider (`oidc-provider`, started here on a free port, `@funnel/testing/oidc-provider`), the built BFF
// configured for it on real Redis and PostgreSQL, and Chromium clicking through the console's link and the
// provider's own sign-in and consent pages, back into the console with the role the person's groups map to. The
// admin's audit log then names each sign-in's operator.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Kysely } from 'kysely';
import type { Page } from 'playwright-core';
import { migrate, openDatabase, type Database } from '@funnel/db/database';
import {
  PROVIDER_SIGN_IN_HEADING,
  startOidcProvider,
  type OidcPerson,
  type TestOidcProvider,
} from '@funnel/testing/oidc-provider';
import { dropSchema, testDatabaseUrl, testSchema } from '@funnel/testing/postgres';
import { freePort, startHarness, type Harness } from './harness';
import { createOperator, OPERATOR_PASSWORD } from './operator-accounts';
import { assertAccessible, collectPageErrors, screenshotBothWidths } from './page-checks';

const OIDC_LINK = 'Sign in with Example Identity';
const people: Record<string, OidcPerson> = {
  grace: {
    email: 'grace@example.com',
    name: 'Grace Hopper',
    groups: ['funnel-admins'],
    password: 'g-passw0rd',
  },
  ken: { email: 'ken@example.com', name: 'Ken Thompson', groups: ['funnel-viewers'], password: 'k-passw0rd' },
  eve: { email: 'eve@example.com', name: 'Eve', groups: ['contractors'], password: 'e-passw0rd' },
  // A local manager's email, verified at the provider, in a viewer group (ADR 0023).
  lin: { email: 'lin@example.com', name: 'Lin', groups: ['funnel-viewers'], password: 'l-passw0rd' },
};
const TOKEN = 'e2e-oidc-token-'.padEnd(48, 'o');
const schema = testSchema('oidc_e2e');
let db: Kysely<Database>;
let provider: TestOidcProvider;
let harness: Harness;

before(async () => {
  db = openDatabase({ url: testDatabaseUrl(), schema });
  await migrate(db, schema);
  const port = await freePort();
  const redirectUri = `http://127.0.0.1:${port}/api/v1/admin/oidc/callback`;
  const client = {
    clientId: 'funnel-console',
    clientSecret: 'e2e-console-secret-0123456789abcdef',
    redirectUri,
  };
  provider = await startOidcProvider(client, people);
  harness = await startHarness({
    label: 'oidc',
    port,
    bffEnv: {
      DATABASE_URL: `${testDatabaseUrl()}?options=${encodeURIComponent(`-c search_path=${schema}`)}`,
      OIDC_ISSUER_URL: provider.issuer,
      OIDC_CLIENT_ID: client.clientId,
      OIDC_CLIENT_SECRET: client.clientSecret,
      OIDC_REDIRECT_URL: redirectUri,
      OIDC_ROLE_MAP: 'funnel-viewers=viewer,funnel-admins=admin',
      OIDC_PROVIDER_NAME: 'Example Identity',
      OIDC_ALLOW_HTTP: 'true',
      ADMIN_API_TOKEN: TOKEN,
    },
  });
});

after(async () => {
  await harness?.close();
  await provider?.close();
  await db?.destroy();
  await dropSchema(schema);
});

/** From the console's sign-in page, through the provider's pages as the person types and clicks them. */
async function signInAtProvider(page: Page, username: string): Promise<void> {
  await page.goto('/operator');
  await page.getByRole('link', { name: OIDC_LINK }).click();
  await page.getByRole('heading', { name: PROVIDER_SIGN_IN_HEADING }).waitFor();
  assert.equal(new URL(page.url()).origin, provider.issuer, 'the password is typed at the provider');
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill(people[username]!.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('button', { name: 'Allow' }).click();
}

test('an admin signs in at the provider: a wrong password stays there, then the console opens as admin', async () => {
  const context = await harness.newContext(1280);
  const page = await context.newPage();
  const errors = collectPageErrors(page);
  await page.goto('/operator');
  await assertAccessible(page, 'the sign-in page with the OIDC link');
  await page.getByRole('link', { name: OIDC_LINK }).waitFor();
  await screenshotBothWidths(page, 'operator-sign-in-oidc');
  await page.getByRole('link', { name: OIDC_LINK }).click();
  await page.getByLabel('Username').fill('grace');
  await page.getByLabel('Password').fill('not her password');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByText('That username and password do not match.').waitFor();
  assert.equal(
    (await context.cookies(harness.baseUrl)).some((c) => c.name === 'funnel_operator'),
    false,
    'no console session',
  );

  await signInAtProvider(page, 'grace');
  await page.getByRole('heading', { name: 'Funnel and sales reports' }).waitFor();
  assert.equal(new URL(page.url()).pathname, '/operator');
  assert.match(await page.getByRole('banner').innerText(), /Grace Hopper\s*\(admin\)/);
  const nav = page.getByRole('navigation', { name: 'Console' });
  assert.ok((await nav.getByRole('link').allInnerTexts()).includes('Audit log'));
  assert.deepEqual(errors, []);
  await context.close();
});

test('a viewer comes back as a viewer; someone in no mapped group is turned away', async () => {
  const context = await harness.newContext(375);
  const page = await context.newPage();
  await signInAtProvider(page, 'ken');
  await page.getByRole('heading', { name: 'Funnel and sales reports' }).waitFor();
  assert.match(await page.getByRole('banner').innerText(), /Ken Thompson\s*\(viewer\)/);
  const nav = page.getByRole('navigation', { name: 'Console' });
  assert.equal((await nav.getByRole('link').allInnerTexts()).includes('Audit log'), false);
  await context.close();

  const stranger = await harness.newContext(375);
  const refused = await stranger.newPage();
  await signInAtProvider(refused, 'eve');
  const alert = refused.getByRole('alert');
  await alert.waitFor();
  assert.match(await alert.innerText(), /not let in: it is in no group with a console role/);
  await refused.getByRole('heading', { name: 'Operator sign-in' }).waitFor();
  await assertAccessible(refused, 'the sign-in page after a refusal');
  await stranger.close();
});

test("the admin's audit log names the operator of each OIDC sign-in, and the refusal", async () => {
  const context = await harness.newContext(1280);
  const page = await context.newPage();
  await signInAtProvider(page, 'grace');
  await page.getByRole('link', { name: 'Audit log' }).click();
  await page.getByLabel('Action').selectOption('session.sign-in-oidc');
  await page.getByRole('button', { name: 'Apply filters' }).click();
  const table = page.getByRole('table', { name: 'Newest first; the log cannot be edited.' });
  await table.locator('tbody tr', { hasText: 'ken@example.com' }).waitFor();
  const rows = await table
    .locator('tbody tr')
    .evaluateAll((trs) =>
      trs.map((tr) => [...tr.querySelectorAll('th, td')].map((c) => c.textContent!.trim())),
    );
  const seen = rows.map((cells) => `${cells[1]} ${cells[2]} ${cells[3]}`);
  // Newest first: Grace now, the stranger refused, Ken, Grace in the first test.
  assert.deepEqual(seen, [
    'grace@example.com session.sign-in-oidc allowed',
    'eve@example.com session.sign-in-oidc denied',
    'ken@example.com session.sign-in-oidc allowed',
    'grace@example.com session.sign-in-oidc allowed',
  ]);
  await context.close();
});

test('a local account the provider names is linked only after its own password, and keeps its role', async () => {
  await createOperator(harness.baseUrl, TOKEN, 'lin@example.com', 'manager');
  const context = await harness.newContext(375);
  const page = await context.newPage();
  const errors = collectPageErrors(page);
  await signInAtProvider(page, 'lin');
  await page.getByRole('heading', { name: 'Link your account' }).waitFor();
  assert.equal(
    (await context.cookies(harness.baseUrl)).some((c) => c.name === 'funnel_operator'),
    false,
    'no console session before the proof',
  );
  await page.getByLabel('Console password').fill('not the console password');
  await page.getByRole('button', { name: 'Link and sign in' }).click();
  await page.getByText('That email, password or code is not right.', { exact: false }).waitFor();
  await assertAccessible(page, 'the link page with an error');
  await page.getByLabel('Console password').fill(OPERATOR_PASSWORD);
  await page.getByRole('button', { name: 'Link and sign in' }).click();
  await page.getByRole('heading', { name: 'Funnel and sales reports' }).waitFor();
  // The provider's viewer group did not demote the local manager.
  assert.match(await page.getByRole('banner').innerText(), /lin\s*\(manager\)/);
  assert.deepEqual(errors, []);
  await context.close();
});
