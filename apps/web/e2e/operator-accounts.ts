// Operator accounts for the console's browser tests (ADR 0021): created as a machine client would, with
// ADMIN_API_TOKEN, and set up through the one-time link's endpoint, so each test starts from a known account.
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';

export const OPERATOR_PASSWORD = 'a long operator passphrase';

/** Creates an account of `role` and chooses OPERATOR_PASSWORD through its set-up link; answers its id. */
export async function createOperator(
  baseUrl: string,
  token: string,
  email: string,
  role: 'viewer' | 'manager' | 'admin',
): Promise<string> {
  const created = await fetch(`${baseUrl}/api/v1/admin/accounts`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ email, displayName: email.split('@')[0], role }),
  });
  assert.equal(created.status, 201, await created.clone().text());
  const { account, setupPath } = (await created.json()) as {
    account: { accountId: string };
    setupPath: string;
  };
  const setup = await fetch(`${baseUrl}/api/v1/admin/account-setup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ token: setupPath.split('#')[1], password: OPERATOR_PASSWORD }),
  });
  assert.equal(setup.status, 204);
  return account.accountId;
}

/** Fills the sign-in form with the pointer and submits it. */
export async function signInThroughPage(
  page: Page,
  email: string,
  password = OPERATOR_PASSWORD,
): Promise<void> {
  // The console is drawn by its code once loaded and once it has asked for the session: a loaded CI run took more
  // than 30 s to show it (as a borrower screen's hydration may take up to 90 s, page-checks.ts).
  await page.getByRole('heading', { name: 'Operator sign-in' }).waitFor({ timeout: 90_000 });
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}
