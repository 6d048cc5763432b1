// The two privacy request forms (spec §2 "Privacy forms", §5, §8): the browser refuses bad input with the spec's
// messages, and a valid request reaches the BFF, lands in the `{prefix}privacy-requests` stream and is answered
// with an alert carrying the server's message.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import {
  CITY_REQUIRED,
  EMAIL_REQUIRED,
  PHONE_INVALID,
  PHONE_REQUIRED,
  PRIVACY_ADDRESS_LENGTH,
  PRIVACY_FIRST_NAME_REQUIRED,
  PRIVACY_LAST_NAME_REQUIRED,
  PRIVACY_PHONE_LENGTH,
  PRIVACY_STATE_REQUIRED,
  PRIVACY_ZIP_CODE_LENGTH,
  STATE_RESIDENCY_REQUIRED,
  UNSUBSCRIBE_EMAIL_INVALID,
  UNSUBSCRIBE_REASON_REQUIRED,
} from '@funnel/contracts/messages';
import { DO_NOT_SELL_CONFIRMATION, UNSUBSCRIBE_CONFIRMATION } from '@funnel/contracts/privacy';
import { leadBefore } from './funnel-driver';
import { startHarness, type Harness } from './harness';
import { leadKeys, newLead } from './lead-in-redis';
import { assertAccessible, collectPageErrors, openScreen, screenshotBothWidths } from './page-checks';
import { openPage, storedPrivacyRequests } from './site-driver';

/** Spec §8: what a request that never got an answer shows (docs/product-rules.md §privacy-requests: we show it, the observed site did not). */
const GENERIC_ERROR = 'An error occurred. Please try again.';

let harness: Harness;

before(async () => {
  harness = await startHarness({ label: 'site-privacy' });
});

after(async () => {
  await harness?.close();
});

/** The message beside `fieldId`, announced (role=alert) and tied to the field by aria-describedby. */
async function assertFieldError(page: Page, fieldId: string, message: string): Promise<void> {
  const error = page.locator(`#${fieldId}-error`);
  await error.waitFor();
  assert.equal((await error.innerText()).trim(), message, `${fieldId}'s message`);
  assert.equal(await error.getAttribute('role'), 'alert');
  const field = page.locator(`#${fieldId}`);
  assert.ok((await field.getAttribute('aria-describedby'))?.split(' ').includes(`${fieldId}-error`));
  assert.equal(await field.getAttribute('aria-invalid'), 'true');
}

async function submit(page: Page, label: string): Promise<void> {
  await page.getByRole('button', { name: label, exact: true }).click();
}

/** The alert after a submit: its title, message and icon; OK closes it and focus returns to the submit button. */
async function acknowledgeAlert(
  page: Page,
  expected: { title: string; message: string; kind: 'success' | 'error'; submitLabel: string; shot?: string },
): Promise<void> {
  const alert = page.getByRole('alertdialog', { name: expected.title });
  await alert.waitFor();
  assert.equal((await alert.locator('p').first().innerText()).trim(), expected.message);
  assert.equal(await alert.locator('[data-kind]').getAttribute('data-kind'), expected.kind);
  assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'OK', 'OK has focus');
  await assertAccessible(page, `${expected.title} alert`);
  if (expected.shot) await screenshotBothWidths(page, expected.shot);
  await alert.getByRole('button', { name: 'OK', exact: true }).click();
  await alert.waitFor({ state: 'hidden' });
  assert.equal(await page.evaluate(() => document.activeElement?.textContent), expected.submitLabel);
}

// Unsubscribe.

test('unsubscribe refuses bad input with the spec messages and stores nothing', async () => {
  const { context, page, errors } = await openPage(harness, '/unsubscribe', 375);
  await submit(page, 'Unsubscribe');
  await assertFieldError(page, 'email', UNSUBSCRIBE_EMAIL_INVALID);
  await assertFieldError(page, 'phone', PHONE_REQUIRED);
  await assertFieldError(page, 'reason', UNSUBSCRIBE_REASON_REQUIRED);
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'email', 'focus on the first to fix');
  await assertAccessible(page, 'unsubscribe with errors');
  await screenshotBothWidths(page, 'site-unsubscribe-errors');

  const phone = page.getByLabel('Phone number', { exact: true });
  await page.getByLabel('Email address', { exact: true }).fill('jane@');
  await phone.fill('212555');
  assert.equal(await phone.inputValue(), '(212) 555', 'the (999) 999-9999 mask');
  await submit(page, 'Unsubscribe');
  await assertFieldError(page, 'email', UNSUBSCRIBE_EMAIL_INVALID);
  await assertFieldError(page, 'phone', PRIVACY_PHONE_LENGTH);

  await phone.fill('1125550142');
  await submit(page, 'Unsubscribe');
  await assertFieldError(page, 'phone', PHONE_INVALID);

  assert.deepEqual(await storedPrivacyRequests(harness), [], 'nothing reached the BFF');
  assert.deepEqual(errors, []);
  await context.close();
});

test('unsubscribe: a valid request is stored and confirmed with an alert', async () => {
  const before = (await storedPrivacyRequests(harness)).length;
  const { context, page, errors } = await openPage(harness, '/unsubscribe', 375);
  const phone = page.getByLabel('Phone number', { exact: true });
  await page.getByLabel('Email address', { exact: true }).fill('  ann.optout@example.com ');
  await phone.pressSequentially('2125550142');
  assert.equal(await phone.inputValue(), '(212) 555-0142');
  await page.getByLabel('Why do you want to unsubscribe?', { exact: true }).selectOption({
    label: 'I did not apply for a loan',
  });
  await submit(page, 'Unsubscribe');
  await acknowledgeAlert(page, {
    title: 'Request received',
    message: UNSUBSCRIBE_CONFIRMATION,
    kind: 'success',
    submitLabel: 'Unsubscribe',
    shot: 'site-unsubscribe-sent',
  });
  assert.equal(await phone.inputValue(), '', 'the form is cleared for another request');

  const stored = (await storedPrivacyRequests(harness)).slice(before);
  assert.equal(stored.length, 1, 'one request in the stream');
  const [entry] = stored;
  assert.equal(entry?.fields.type, 'unsubscribe');
  assert.equal(entry?.fields.source, 'form');
  assert.ok(entry?.fields.requestId && entry.fields.at, 'with its request id and time');
  assert.deepEqual(entry?.request, {
    email: 'ann.optout@example.com',
    phone: '2125550142',
    reason: 'DID_NOT_APPLY',
  });
  assert.deepEqual(errors, []);
  await context.close();
});

test("unsubscribe: the server's field messages show next to the fields", async () => {
  const before = (await storedPrivacyRequests(harness)).length;
  const { context, page } = await openPage(harness, '/unsubscribe');
  // The browser checks first, so only an altered request reaches the BFF with bad input: its 400 is real.
  await page.route('**/api/v1/privacy/unsubscribe', (route) => {
    const body = JSON.parse(route.request().postData() ?? '{}') as Record<string, unknown>;
    return route.continue({ postData: JSON.stringify({ ...body, email: 'not-an-email', phone: '12' }) });
  });
  await page.getByLabel('Email address', { exact: true }).fill('bob.altered@example.com');
  await page.getByLabel('Phone number', { exact: true }).fill('3125557788');
  await page.getByLabel('Why do you want to unsubscribe?', { exact: true }).selectOption('SPAM');
  await submit(page, 'Unsubscribe');
  await assertFieldError(page, 'email', UNSUBSCRIBE_EMAIL_INVALID);
  await assertFieldError(page, 'phone', PRIVACY_PHONE_LENGTH);
  assert.equal(await page.getByRole('alertdialog').count(), 0);
  assert.equal((await storedPrivacyRequests(harness)).length, before, 'nothing stored');
  await context.close();
});

test('unsubscribe: a request that cannot reach the server ends in an alert with the error icon', async () => {
  const { context, page } = await openPage(harness, '/unsubscribe');
  await page.route('**/api/v1/privacy/unsubscribe', (route) => route.abort('internetdisconnected'));
  const email = page.getByLabel('Email address', { exact: true });
  await email.fill('cara.offline@example.com');
  await page.getByLabel('Phone number', { exact: true }).fill('3125557788');
  await page.getByLabel('Why do you want to unsubscribe?', { exact: true }).selectOption('OTHER');
  await submit(page, 'Unsubscribe');
  await acknowledgeAlert(page, {
    title: 'Request not sent',
    message: GENERIC_ERROR,
    kind: 'error',
    submitLabel: 'Unsubscribe',
    shot: 'site-unsubscribe-failed',
  });
  assert.equal(await email.inputValue(), 'cara.offline@example.com', 'what was typed is kept');
  await context.close();
});

// Do not sell my information.

test('do-not-sell refuses bad input with the spec messages; the middle name is optional', async () => {
  const before = (await storedPrivacyRequests(harness)).length;
  const { context, page, errors } = await openPage(harness, '/do-not-sell-information', 375);
  await submit(page, 'Submit request');
  await assertFieldError(page, 'stateResidencyPrompt', STATE_RESIDENCY_REQUIRED);
  await assertFieldError(page, 'firstName', PRIVACY_FIRST_NAME_REQUIRED);
  await assertFieldError(page, 'lastName', PRIVACY_LAST_NAME_REQUIRED);
  await assertFieldError(page, 'email', EMAIL_REQUIRED);
  await assertFieldError(page, 'phone', PHONE_REQUIRED);
  // A US-only service asks no country (docs/decisions-addendum.md, issue 25).
  assert.equal(await page.getByLabel('Country', { exact: true }).count(), 0);
  await assertFieldError(page, 'zip', PRIVACY_ZIP_CODE_LENGTH);
  await assertFieldError(page, 'state', PRIVACY_STATE_REQUIRED);
  await assertFieldError(page, 'address', PRIVACY_ADDRESS_LENGTH);
  await assertFieldError(page, 'city', CITY_REQUIRED);
  assert.equal(await page.locator('#middleName-error').count(), 0, 'no message for the optional middle name');
  await assertAccessible(page, 'do-not-sell with errors');
  await screenshotBothWidths(page, 'site-do-not-sell-errors');

  const zip = page.getByLabel('ZIP code', { exact: true });
  await zip.fill('9a4-1');
  assert.equal(await zip.inputValue(), '941', 'digits only');
  await page.getByLabel('Street address', { exact: true }).fill(' 12 ');
  await page.getByLabel('First name', { exact: true }).fill('   ');
  await submit(page, 'Submit request');
  await assertFieldError(page, 'zip', PRIVACY_ZIP_CODE_LENGTH);
  await assertFieldError(page, 'address', PRIVACY_ADDRESS_LENGTH);
  await assertFieldError(page, 'firstName', PRIVACY_FIRST_NAME_REQUIRED);

  assert.equal((await storedPrivacyRequests(harness)).length, before, 'nothing reached the BFF');
  assert.deepEqual(errors, []);
  await context.close();
});

test("do-not-sell: a valid request is stored, flags the visitor's own lead and is confirmed", async () => {
  const before = (await storedPrivacyRequests(harness)).length;
  const context = await harness.newContext(1280);
  const leadsBefore = await leadKeys(harness);
  await leadBefore(context, 'lgname');
  const lead = await newLead(harness, leadsBefore);
  const page = await context.newPage();
  await openScreen(page, '/do-not-sell-information');
  await page.getByRole('radio', { name: 'California', exact: true }).check();
  await page.getByLabel('First name', { exact: true }).fill('Maria');
  await page.getByLabel('Last name', { exact: true }).fill('Lopez');
  await page.getByLabel('Email address', { exact: true }).fill('maria.lopez@example.com');
  await page.getByLabel('Phone number', { exact: true }).fill('4155550123');
  await page.getByLabel('Street address', { exact: true }).fill('500 Market St');
  await page.getByLabel('City', { exact: true }).fill('San Francisco');
  await page.getByLabel('State', { exact: true }).selectOption('CA');
  await page.getByLabel('ZIP code', { exact: true }).fill('94105');
  await submit(page, 'Submit request');
  await acknowledgeAlert(page, {
    title: 'Request received',
    message: DO_NOT_SELL_CONFIRMATION,
    kind: 'success',
    submitLabel: 'Submit request',
    shot: 'site-do-not-sell-sent',
  });

  const stored = (await storedPrivacyRequests(harness)).slice(before);
  assert.equal(stored.length, 1, 'one request in the stream');
  const [entry] = stored;
  assert.equal(entry?.fields.type, 'do-not-sell');
  assert.equal(entry?.fields.leadId, lead.id, "the visitor's lead is named");
  assert.deepEqual(entry?.request, {
    stateResidencyPrompt: 'CA',
    firstName: 'Maria',
    lastName: 'Lopez',
    email: 'maria.lopez@example.com',
    phone: '4155550123',
    country: 'United States',
    zip: '94105',
    state: 'CA',
    address: '500 Market St',
    city: 'San Francisco',
  });
  await context.close();
});

test('a browser sending Global Privacy Control is told its opt-out was honoured; another is not (issue 41)', async () => {
  const context = await harness.newContext(375);
  // Chromium has no Global Privacy Control setting: the page is given what a browser with it on shows.
  await context.setExtraHTTPHeaders({ 'Sec-GPC': '1' });
  // A string, not a function: tsx's transform would leave a helper in a function that the page does not have.
  await context.addInitScript(
    "Object.defineProperty(Navigator.prototype, 'globalPrivacyControl', { get: () => true, configurable: true });",
  );
  const page = await context.newPage();
  const errors = collectPageErrors(page);
  await openScreen(page, '/do-not-sell-information');
  const notice = page.getByText('Opt-out request honored.');
  await notice.first().waitFor();
  assert.equal(await notice.count(), 2, 'on the page, above its form, and in the footer');
  await assertAccessible(page, 'do-not-sell with Global Privacy Control');
  await screenshotBothWidths(page, 'site-do-not-sell-gpc');
  assert.deepEqual(errors, []);
  await context.close();

  const plain = await openPage(harness, '/do-not-sell-information', 375);
  assert.equal(await plain.page.getByText('Opt-out request honored.').count(), 0);
  await plain.context.close();
});
