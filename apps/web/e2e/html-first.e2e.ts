// Issue 26, docs/adr/0019-html-first-borrower-screens.md: every borrower screen arrives as HTML that already
// shows its heading, fields and Next button; React hydrates that HTML (the same elements stay, nothing is
// re-drawn, no hydration error); and a borrower who types and presses Next before the app's code has run loses
// nothing.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import type { ConsoleMessage, Page } from 'playwright-core';
import { leadBefore } from './funnel-driver';
import { repoRoot, startHarness, type Harness } from './harness';
import { appTookOver, assertAccessible, collectPageErrors, openScreen } from './page-checks';

const SCREENSHOT_DIR = path.join(repoRoot, 'screenshots');

/** The app's entry chunk (Vite names it after index.html), the one script that starts React. */
const ENTRY_SCRIPT = /\/assets\/index-[\w-]+\.js$/;

let harness: Harness;

before(async () => {
  harness = await startHarness({ label: 'html-first' });
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
});

after(async () => {
  await harness?.close();
});

/**
 * A slow phone: the app's entry arrives only when the test calls the function returned. The page shows its
 * prerendered HTML meanwhile, and whatever is typed is typed before the app has the page.
 */
async function holdTheApp(page: Page): Promise<() => void> {
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(ENTRY_SCRIPT, async (route) => {
    await held;
    await route.continue();
  });
  return release;
}

/** Console errors and warnings of `page`: a hydration mismatch is reported there (or thrown, see pageerror). */
function collectConsoleProblems(page: Page): string[] {
  const problems: string[] = [];
  page.on('console', (message: ConsoleMessage) => {
    if (message.type() === 'error' || message.type() === 'warning') problems.push(message.text());
  });
  return problems;
}

test('with JavaScript off, /start and a step screen show their heading, fields and button', async () => {
  const context = await harness.browser.newContext({
    baseURL: harness.baseUrl,
    viewport: { width: 375, height: 812 },
    javaScriptEnabled: false,
  });
  const page = await context.newPage();

  await page.goto('/start');
  await page.getByRole('heading', { level: 1, name: 'Personal loans from $100 to $5,000' }).waitFor();
  for (const label of ['How much do you need?', 'What is the loan for?', 'ZIP code']) {
    assert.equal(await page.getByLabel(label, { exact: true }).count(), 1, `/start: ${label}`);
  }
  assert.ok(await page.getByRole('button', { name: 'Get Started', exact: true }).first().isVisible());
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'html-first-start-no-js-375.png') });

  await page.goto('/lgname');
  await page.getByRole('heading', { level: 1, name: 'What is your name?' }).waitFor();
  for (const label of ['First name', 'Last name']) {
    assert.ok(await page.getByLabel(label, { exact: true }).isVisible(), `/lgname: ${label}`);
  }
  assert.ok(await page.getByRole('button', { name: 'Next', exact: true }).isVisible());
  // Nothing typed on a page without its app may ever travel in an address: the form posts.
  assert.equal(await page.locator('form').getAttribute('method'), 'post');
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'html-first-lgname-no-js-375.png') });

  await page.goto('/dob');
  await page.getByRole('heading', { level: 1, name: 'What is your date of birth?' }).waitFor();
  assert.ok(await page.getByLabel('Month', { exact: true }).isVisible());
  assert.ok(await page.getByRole('button', { name: 'Next', exact: true }).isVisible());
  await context.close();
});

test('React hydrates the prerendered screens: the same elements stay and no hydration error is reported', async () => {
  const context = await harness.newContext(375);
  await leadBefore(context, 'nextpaydate');
  const page = await context.newPage();
  const errors = collectPageErrors(page);
  const console = collectConsoleProblems(page);
  const screens = [
    { path: '/start', heading: 'Personal loans from $100 to $5,000' },
    { path: '/lgname', heading: 'What is your name?' },
    { path: '/dob', heading: 'What is your date of birth?' },
    { path: '/nextpaydate', heading: 'When is your next pay date?' },
    { path: '/nextpaydatesort', heading: 'When is your next pay date?' },
    { path: '/frequently-asked-questions', heading: 'Frequently asked questions' },
  ];
  for (const screen of screens) {
    // The entry is held until the prerendered heading is in hand, so the test holds the element React must keep.
    const release = await holdTheApp(page);
    await page.goto(screen.path, { waitUntil: 'commit' });
    const heading = await page
      .getByRole('heading', { level: 1, name: screen.heading })
      .elementHandle({ timeout: 10_000 });
    assert.ok(heading, `${screen.path}: a prerendered h1`);
    release();
    // Hydrated (the app marks the page), and the saved lead read; the page's own h1 is still that node.
    await appTookOver(page);
    await page.waitForLoadState('networkidle');
    assert.equal(
      await heading.evaluate((element) => element.isConnected),
      true,
      `${screen.path}: the prerendered h1 was replaced, not hydrated`,
    );
    await page.unroute(ENTRY_SCRIPT);
  }
  // The saved answers fill in once the lead arrives: /lgname kept its fields and shows the saved name.
  await openScreen(page, '/lgname');
  await page.waitForLoadState('networkidle');
  assert.notEqual(await page.getByLabel('First name', { exact: true }).inputValue(), '');
  await assertAccessible(page, '/lgname after hydration');
  await openScreen(page, '/nextpaydatesort');
  await page.getByText(/^Welcome back, \S+!$/).waitFor();
  assert.deepEqual(errors, []);
  assert.deepEqual(
    console.filter((text) => /hydrat|did not match|#418|#423|#425/i.test(text)),
    [],
    'hydration problems reported in the console',
  );
  await context.close();
});

test('a name typed and sent before the app has loaded is kept and saved once it has', async () => {
  const context = await harness.newContext(375);
  await leadBefore(context, 'lgname');
  const page = await context.newPage();
  const errors = collectPageErrors(page);
  const release = await holdTheApp(page);
  await page.goto('/lgname', { waitUntil: 'commit' });
  // early-input.js is inlined in the page's head: once the heading is there, it holds a press of Next.
  await page.getByRole('heading', { level: 1, name: 'What is your name?' }).waitFor();

  await page.getByLabel('First name', { exact: true }).fill('Maribel');
  await page.getByLabel('Last name', { exact: true }).fill('Okonkwo');
  await page.getByRole('button', { name: 'Next', exact: true }).click();
  // Held, not sent: the page stays, and nothing typed went into an address.
  await page.waitForTimeout(300);
  assert.equal(new URL(page.url()).pathname, '/lgname');
  assert.equal(new URL(page.url()).search, '');
  assert.equal(await page.getByLabel('First name', { exact: true }).inputValue(), 'Maribel');

  release();
  // Once hydrated, the press is made again with what was typed: saved, and on to the next step.
  await page.waitForURL('**/email');
  const lead = await context.request.get('/api/v1/lead');
  const { answers } = (await lead.json()) as { answers: Record<string, unknown> };
  assert.equal(answers.firstName, 'Maribel');
  assert.equal(answers.lastName, 'Okonkwo');
  await page.goBack();
  await page.getByRole('heading', { level: 1, name: 'What is your name?' }).waitFor();
  assert.equal(await page.getByLabel('First name', { exact: true }).inputValue(), 'Maribel');
  assert.deepEqual(errors, []);
  await context.close();
});

test('digits typed before and while the app takes over come out in the phone mask, and are saved', async () => {
  const context = await harness.newContext(375);
  await leadBefore(context, 'cellphone');
  const page = await context.newPage();
  const errors = collectPageErrors(page);
  const release = await holdTheApp(page);
  await page.goto('/cellphone', { waitUntil: 'commit' });
  const phone = page.getByLabel('Phone number', { exact: true });
  await phone.pressSequentially('21255');
  assert.equal(await phone.inputValue(), '21255', 'the HTML page has no mask of its own');

  release();
  // The rest is typed while the app arrives and hydrates: each key may land before, during or after.
  await phone.pressSequentially('50142', { delay: 40 });
  await appTookOver(page);
  // Given to the app as typed: the same mask as a number typed into the running app.
  assert.equal(await phone.inputValue(), '(212) 555-0142');
  await page.getByRole('button', { name: 'Next', exact: true }).click();
  await page.waitForURL('**/besttimecontact');
  const lead = await context.request.get('/api/v1/lead');
  const { answers } = (await lead.json()) as { answers: Record<string, unknown> };
  assert.equal(answers.phone, '2125550142');
  assert.deepEqual(errors, []);
  await context.close();
});
