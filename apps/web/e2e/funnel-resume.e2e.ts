import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { SESSION_EXPIRED } from '@funnel/contracts/messages';
import { API_ANSWERS, VISITOR, answer, completeLanding, leadBefore, nextTo } from './funnel-driver';
import { startHarness, type Harness } from './harness';
import { leadKeys, newLead, openSealed } from './lead-in-redis';
import {
  assertAccessible,
  collectPageErrors,
  openScreen,
  reloadScreen,
  screenshotBothWidths,
} from './page-checks';

let harness: Harness;

before(async () => {
  harness = await startHarness({ label: 'resume' });
});

after(async () => {
  await harness?.close();
});

test('a reload resumes on the same step, and Back shows every saved answer', async () => {
  const context = await harness.newContext(375);
  const page = await context.newPage();
  const errors = collectPageErrors(page);
  await openScreen(page, '/start');
  await completeLanding(page);
  await answer(page, 'lgname');
  await nextTo(page, '/email');
  await answer(page, 'email');
  await page.getByRole('button', { name: 'Next', exact: true }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Confirm' }).click();
  await page.waitForURL('**/cellphone');
  await answer(page, 'cellphone');
  await nextTo(page, '/besttimecontact');
  await answer(page, 'besttimecontact');
  await nextTo(page, '/dob');
  await answer(page, 'dob');
  await nextTo(page, '/address');

  await reloadScreen(page);
  await page.getByRole('heading', { level: 1, name: 'What is your street address?' }).waitFor();
  assert.equal(new URL(page.url()).pathname, '/address');
  assert.equal(await page.getByLabel('ZIP code', { exact: true }).inputValue(), VISITOR.zipCode);
  await page.getByText('New York, NY').waitFor();

  const back = page.getByRole('link', { name: 'Back' });
  await back.click();
  await page.waitForURL('**/dob');
  await page.getByText('We have your date of birth on file.').waitFor();
  await back.click();
  await page.waitForURL('**/besttimecontact');
  assert.ok(await page.getByRole('radio', { name: 'Morning' }).isChecked());
  await back.click();
  await page.waitForURL('**/cellphone');
  assert.equal(await page.getByLabel('Phone number', { exact: true }).inputValue(), '(212) 555-0123');
  await back.click();
  await page.waitForURL('**/email');
  assert.equal(await page.getByRole('combobox', { name: 'Email address' }).inputValue(), VISITOR.email);
  await back.click();
  await page.waitForURL('**/lgname');
  assert.equal(await page.getByRole('combobox', { name: 'First name' }).inputValue(), VISITOR.firstName);
  assert.equal(await page.getByRole('combobox', { name: 'Last name' }).inputValue(), VISITOR.lastName);

  await reloadScreen(page);
  await page.getByRole('heading', { level: 1, name: 'What is your name?' }).waitFor();
  assert.equal(await page.getByRole('combobox', { name: 'First name' }).inputValue(), VISITOR.firstName);

  // Next after going Back moves one screen at a time through the answered screens (issue 25), not straight to
  // the first unanswered one.
  await nextTo(page, '/email');
  assert.equal(await page.getByRole('combobox', { name: 'Email address' }).inputValue(), VISITOR.email);
  assert.deepEqual(errors, []);
  await context.close();
});

test('without a session a step says in the page that the session expired; Start over goes to the start', async () => {
  const context = await harness.newContext();
  const page = await context.newPage();
  const alerts: string[] = [];
  page.on('dialog', (dialog) => {
    alerts.push(dialog.message());
    void dialog.accept();
  });
  await openScreen(page, '/hometime');
  await page.getByRole('alert').filter({ hasText: SESSION_EXPIRED }).waitFor();
  await page.getByRole('button', { name: 'Start over', exact: true }).click();
  await page.waitForURL('**/start');
  assert.deepEqual(
    alerts,
    [],
    'never a browser alert (docs/product-rules.md §returning-visitors-and-sessions)',
  );
  await context.close();
});

test('the /apply aliases open their screens, and / opens the start', async () => {
  const context = await harness.newContext();
  await leadBefore(context, 'hometime');
  const page = await context.newPage();
  await openScreen(page, '/apply/home_time');
  await page.waitForURL('**/hometime');
  await page
    .getByRole('heading', { level: 1, name: 'How long have you lived at your current address?' })
    .waitFor();
  await openScreen(page, '/apply/own_car');
  await page.waitForURL('**/owncar');
  await openScreen(page, '/');
  await page.waitForURL('**/start');
  await context.close();
});

test('/nextpaydatesort greets the visitor by first name and saves the pay date', async () => {
  const context = await harness.newContext();
  await leadBefore(context, 'nextpaydate');
  const page = await context.newPage();
  await openScreen(page, '/nextpaydatesort');
  await page.getByText(`Welcome back, ${VISITOR.firstName}!`).waitFor();
  await page.getByRole('heading', { level: 1, name: 'When is your next pay date?' }).waitFor();
  await assertAccessible(page, 'nextpaydatesort');
  await screenshotBothWidths(page, '30-nextpaydatesort');
  await answer(page, 'nextpaydate');
  await nextTo(page, '/empinfor');
  await context.close();
});

test('a deep link pre-fills a new lead, leaves no email in the address bar and asks the amount on the name step', async () => {
  const context = await harness.newContext();
  const page = await context.newPage();
  const before = await leadKeys(harness);
  await openScreen(page, '/?email=deep.link%40example.com&loan_reason=MEDICAL');
  await page.waitForURL('**/lgname');
  assert.ok(!page.url().includes('example.com'), 'the email is gone from the address bar');
  // The new tab's blank page and this screen: every address on the way was replaced, not stacked.
  assert.equal(await page.evaluate(() => history.length), 2, 'and from the history');
  const amount = page.getByLabel('How much do you need?', { exact: true });
  assert.equal(await amount.inputValue(), '500');
  await assertAccessible(page, 'lgname with amount');
  await screenshotBothWidths(page, '31-lgname-deep-link');
  await amount.selectOption('2000');
  await answer(page, 'lgname');
  // The email came with the link: Next shows it on its own screen, answered, one screen at a time (issue 25).
  await nextTo(page, '/email');
  assert.equal(
    await page.getByRole('combobox', { name: 'Email address' }).inputValue(),
    'deep.link@example.com',
  );
  const lead = await newLead(harness, before);
  assert.equal(openSealed(harness, lead, 'email'), 'deep.link@example.com');
  assert.equal(lead.raw.loan_reason, JSON.stringify('MEDICAL'));
  assert.equal(lead.raw.loan_amount, '2000');
  await context.close();
});

test('answers on file are shown masked and can be kept: the SSN screen goes on to matching', async () => {
  const context = await harness.newContext();
  await leadBefore(context, 'ssn');
  const saved = await context.request.put('/api/v1/lead/steps/ssn', { data: API_ANSWERS.ssn });
  assert.equal(saved.status(), 200);
  const page = await context.newPage();

  await openScreen(page, '/bankaccount');
  await page.getByText('Your account number ending in 6789 is on file.').waitFor();
  await screenshotBothWidths(page, '32-bankaccount-on-file');
  await page.getByRole('button', { name: 'Enter a different account number' }).click();
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'bankAccount');

  await openScreen(page, '/ssn');
  await page.getByText('Your Social Security Number ending in 6789 is on file.').waitFor();
  await assertAccessible(page, 'ssn on file');
  await page.getByRole('button', { name: 'Request Funds', exact: true }).click();
  await page.waitForURL('**/mapping-lender');
  await context.close();
});

test('/requestcash asks for consent and goes to matching; /configuration is the waiting screen', async () => {
  const context = await harness.newContext();
  await leadBefore(context, 'ssn');
  // Request Cash submits the application, which needs every answer on file.
  const saved = await context.request.put('/api/v1/lead/steps/ssn', { data: API_ANSWERS.ssn });
  assert.equal(saved.status(), 200);
  const page = await context.newPage();
  await openScreen(page, '/requestcash');
  await page.getByRole('heading', { level: 1, name: 'Your request is ready' }).waitFor();
  await assertAccessible(page, 'requestcash');
  await screenshotBothWidths(page, '33-requestcash');
  await page.getByRole('button', { name: 'Request Cash', exact: true }).click();
  await page.waitForURL('**/mapping-lender');

  await openScreen(page, '/configuration');
  await page.getByRole('heading', { level: 1, name: 'Please do not close this window' }).waitFor();
  await assertAccessible(page, 'configuration');
  await openScreen(page, '/no-such-page');
  await page.getByRole('heading', { level: 1, name: 'Page not found' }).waitFor();
  await assertAccessible(page, 'not found');
  await context.close();
});

test('a step opened ahead of the first unanswered one goes on from that one when Next is pressed, storing nothing', async () => {
  const context = await harness.newContext(375);
  const page = await context.newPage();
  const errors = collectPageErrors(page);
  await openScreen(page, '/start');
  await completeLanding(page);
  await page.waitForURL('**/lgname');
  // An address typed or bookmarked: the best time to call before the name, email and phone.
  await openScreen(page, '/besttimecontact');
  await answer(page, 'besttimecontact');
  await page.getByRole('button', { name: 'Next', exact: true }).click();
  await page.waitForURL('**/lgname');
  await page.getByRole('heading', { level: 1, name: 'What is your name?' }).waitFor();
  assert.equal(await page.getByRole('combobox', { name: 'First name' }).inputValue(), '');
  assert.deepEqual(errors, []);
  await context.close();
});
