// A duplicate borrower's lead in the operator console (issue 40, point 13): a visitor's lead is sold through the
// real BFF, worker, lender sandbox, Redis and PostgreSQL; the same person applies again in another browser and is
// not sent. The duplicate's journey says it was never sent to buyers and links the lead they applied with first,
// whose summary says who bought it and for how much; the landing answers read as the funnel labels them. In
// Chromium at 375 and 1280 px, checked with axe.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import type { Kysely } from 'kysely';
import type { BrowserContext, Page } from 'playwright-core';
import { CONSENT_VERSION } from '@funnel/contracts/consent';
import { migrate, openDatabase, type Database } from '@funnel/db/database';
import { dropSchema, testDatabaseUrl, testSchema } from '@funnel/testing/postgres';
import { API_ANSWERS, leadBefore } from './funnel-driver';
import { startHarness, type Harness } from './harness';
import { leadKeys, newLead } from './lead-in-redis';
import { createOperator, signInThroughPage } from './operator-accounts';
import { checkBothWidths, collectPageErrors, screenshotBothWidths } from './page-checks';
import { startLenderSandbox, startWorker } from './submission-pipeline';

const TOKEN = 'e2e-duplicate-journey-'.padEnd(48, 'd');
const schema = testSchema('dupjourney_e2e');
const folder = mkdtempSync(path.join(tmpdir(), 'duplicate-journey-e2e-'));
let db: Kysely<Database>;
let harness: Harness;
let original: string;
let duplicate: string;

/** The visitor of the funnel driver applies in `context`, through the API the screens use; answers the lead id. */
async function apply(context: BrowserContext): Promise<string> {
  const before = await leadKeys(harness);
  await leadBefore(context, 'ssn');
  await context.request.put('/api/v1/lead/steps/ssn', { data: API_ANSWERS.ssn });
  const submitted = await context.request.post('/api/v1/lead/submit', {
    data: { button: 'REQUEST_FUNDS', consentVersion: CONSENT_VERSION, pagePath: '/ssn' },
  });
  assert.equal(submitted.status(), 202, await submitted.text());
  return (await newLead(harness, before)).id;
}

/** Waits until the system of record holds the lead's outcome. */
async function outcomeRecorded(leadId: string): Promise<void> {
  for (let tries = 0; tries < 240; tries++) {
    const response = await fetch(`${harness.baseUrl}/api/v1/admin/leads/${leadId}`, {
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    if (response.status === 200) {
      const { summary } = (await response.json()) as { summary: { outcome: string } };
      if (summary.outcome !== 'pending') return;
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`the outcome of ${leadId} never reached the system of record`);
}

/** The description beside a summary term. */
const summaryOf = (page: Page, term: string) =>
  page.locator('dl dt', { hasText: term }).locator('xpath=following-sibling::dd[1]');

before(async () => {
  db = openDatabase({ url: testDatabaseUrl(), schema });
  await migrate(db, schema);
  const url = `${testDatabaseUrl()}?options=${encodeURIComponent(`-c search_path=${schema}`)}`;
  // One buyer, the sandbox's lead service, at a contract price: the BFF reads its terms only, the worker posts
  // to the sandbox.
  const buyersFile = (name: string, baseUrl: string) => {
    const file = path.join(folder, name);
    writeFileSync(
      file,
      JSON.stringify({
        timeZone: 'America/New_York',
        buyers: [{ id: 'lead-network', protocol: 'lead-service', baseUrl, tier: 1, price: 30 }],
      }),
    );
    return file;
  };
  harness = await startHarness({
    label: 'dupjourney',
    bffEnv: {
      DATABASE_URL: url,
      ADMIN_API_TOKEN: TOKEN,
      DUPLICATE_WINDOW_DAYS: '30',
      BUYERS_FILE: buyersFile('bff-buyers.json', 'http://127.0.0.1:9'),
    },
  });
  const sandbox = await startLenderSandbox(harness);
  await sandbox.configure({ soldShare: 1, pendingShare: 0 });
  await startWorker(harness, sandbox, {
    DATABASE_URL: url,
    BUYERS_FILE: buyersFile('buyers.json', sandbox.url),
  });
  await createOperator(harness.baseUrl, TOKEN, 'ada@example.com', 'admin');

  const first = await harness.newContext();
  original = await apply(first);
  await outcomeRecorded(original);
  await first.close();
  // The same person, typed again in another browser.
  const second = await harness.newContext();
  duplicate = await apply(second);
  await outcomeRecorded(duplicate);
  await second.close();
});

after(async () => {
  await harness?.close();
  await db?.destroy();
  await dropSchema(schema);
  rmSync(folder, { recursive: true, force: true });
});

test("a duplicate's journey says it was never sent and links the lead sold first, which names its buyer and price", async () => {
  const context = await harness.newContext(1280);
  const page = await context.newPage();
  const errors = collectPageErrors(page);
  await page.goto(`/operator/leads/${duplicate}`);
  await signInThroughPage(page, 'ada@example.com');
  await page.getByRole('heading', { name: `Lead ${duplicate}` }).waitFor();

  const timeline = page.getByRole('region', { name: 'Timeline' });
  await timeline.getByRole('heading', { name: 'Submitted: not sent to buyers' }).waitFor();
  assert.equal(await timeline.getByRole('heading', { name: 'Submitted to buyers' }).count(), 0);
  const text = await timeline.innerText();
  assert.match(text, /Duplicate borrower \(not sent\)/);
  // The landing answers as the funnel labels them, never their codes.
  assert.match(text, /Reason Auto Repair/);
  assert.match(text, /State New York/);
  assert.doesNotMatch(text, /AUTO_REPAIR/);
  assert.equal(await summaryOf(page, 'Source').innerText(), 'Funnel (borrowers)');
  assert.equal(await summaryOf(page, 'Bought by').innerText(), 'No buyer');
  assert.equal(await summaryOf(page, 'Duplicate of').innerText(), `Lead ${original}`);
  await checkBothWidths(page, "a duplicate borrower's lead journey");
  await screenshotBothWidths(page, 'operator-lead-journey-duplicate');

  await timeline.getByRole('link', { name: `Original lead ${original}` }).click();
  await page.getByRole('heading', { name: `Lead ${original}` }).waitFor();
  await page.getByRole('heading', { name: 'Submitted to buyers' }).waitFor();
  assert.equal(await summaryOf(page, 'Bought by').innerText(), 'lead-network for $30.00');
  assert.equal(await summaryOf(page, 'Outcome').innerText(), 'Sold');
  assert.equal(await page.getByRole('term').filter({ hasText: 'Duplicate of' }).count(), 0);
  await checkBothWidths(page, 'the original lead, sold');
  assert.deepEqual(errors, []);
  await context.close();
});
