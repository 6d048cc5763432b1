// A lead's journey in the operator console (issue 33): a partner lead goes through the real BFF, worker, lender
// sandbox, Redis and PostgreSQL; its partner's webhook fails once and is retried, and the journey shows both
// attempts. An admin reveals a masked answer for a reason and the audit log shows it by that admin; a viewer is
// not offered it and the BFF refuses it (403); a manager approves one buyer's return and rejects another on the
// Returns page, then reverses the approval for a reason, and the leads' journeys show each decision. In Chromium at
// 375 and 1280 px, checked with axe.
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import type { Kysely } from 'kysely';
import { toClientFields } from '@funnel/contracts/fields';
import { addDays } from '@funnel/contracts/rules/calendar-date';
import { nextBankBusinessDay } from '@funnel/contracts/rules/pay-dates';
import { SAMPLE_LEAD } from '@funnel/contracts/sample-lead';
import { migrate, openDatabase, type Database } from '@funnel/db/database';
import { dropSchema, testDatabaseUrl, testSchema } from '@funnel/testing/postgres';
import { startHarness, type Harness } from './harness';
import { createOperator, signInThroughPage } from './operator-accounts';
import { checkBothWidths, collectPageErrors, screenshotBothWidths } from './page-checks';
import { startLenderSandbox, startWorker } from './submission-pipeline';

const TOKEN = 'e2e-journey-token-'.padEnd(48, 'j');
const REVERSAL = 'The buyer withdrew the return (ticket 77).';
const WEBHOOK_SECRET = `whsec_${randomBytes(32).toString('base64')}`;
const PARTNER_KEY = `fpk_${randomBytes(24).toString('base64url')}`;
const BUYER_KEY = `fbk_${randomBytes(24).toString('base64url')}`;
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const REASON = 'Ticket 4411: the borrower asked which email we hold';
const schema = testSchema('journey_e2e');
const folder = mkdtempSync(path.join(tmpdir(), 'journey-e2e-'));
let db: Kysely<Database>;
let harness: Harness;
let receiver: Server;
let webhookUrl: string;
let webhookCalls = 0;
const leads: string[] = [];
let leadCount = 0;

/** The sandbox's borrower, posted by the partner: each lead another email, so none is a duplicate. */
async function postPartnerLead(email: string, withWebhook: boolean): Promise<string> {
  leadCount += 1;
  const today = new Date().toISOString().slice(0, 10);
  const { city: _city, state: _state, incomeNextDate2: _next, ...answers } = toClientFields(SAMPLE_LEAD);
  const posted = await fetch(`${harness.baseUrl}/api/v1/partner/leads`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${PARTNER_KEY}`,
      'content-type': 'application/json',
      'idempotency-key': `order-${leadCount}`,
    },
    body: JSON.stringify({
      ...answers,
      email,
      incomeNextDate1: nextBankBusinessDay(addDays(today, 7)),
      consent: {
        at: new Date().toISOString(),
        ip: '203.0.113.45',
        userAgent: 'Mozilla/5.0 (end-to-end)',
        pageUrl: 'https://loans.partner.example/apply',
      },
      ...(withWebhook ? { webhookUrl } : {}),
    }),
  });
  assert.equal(posted.status, 202, await posted.clone().text());
  return ((await posted.json()) as { leadId: string }).leadId;
}

/** The journey as the API gives it, once `ready` says it holds what the test waits for. */
async function journeyWhen(
  leadId: string,
  ready: (types: string[]) => boolean,
): Promise<Array<{ event?: Record<string, unknown> }>> {
  for (let tries = 0; tries < 240; tries++) {
    const response = await fetch(`${harness.baseUrl}/api/v1/admin/leads/${leadId}`, {
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    if (response.status === 200) {
      const { timeline } = (await response.json()) as {
        timeline: Array<{ event?: Record<string, unknown> }>;
      };
      if (ready(timeline.map((entry) => String(entry.event?.type)))) return timeline;
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`the journey of ${leadId} never got there`);
}

before(async () => {
  db = openDatabase({ url: testDatabaseUrl(), schema });
  await migrate(db, schema);
  const url = `${testDatabaseUrl()}?options=${encodeURIComponent(`-c search_path=${schema}`)}`;
  // The partner's webhook endpoint: a 500 first, then 204.
  receiver = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      webhookCalls += 1;
      response.statusCode = webhookCalls === 1 ? 500 : 204;
      response.end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  webhookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/funnel-hook`;
  // One buyer, the sandbox's lead service, whose return terms send every return to an operator. The BFF reads
  // only its terms, before the sandbox has a port; the worker's copy names the sandbox.
  const buyersFile = (name: string, baseUrl: string) => {
    const file = path.join(folder, name);
    writeFileSync(
      file,
      JSON.stringify({
        timeZone: 'America/New_York',
        buyers: [
          {
            id: 'lead-network',
            protocol: 'lead-service',
            baseUrl,
            tier: 1,
            price: 30,
            returns: { windowDays: 7, cap: { count: 10, period: 'month' }, autoApprove: false },
          },
        ],
      }),
    );
    return file;
  };
  const shared = {
    DATABASE_URL: url,
    PARTNER_WEBHOOK_SECRETS: `acme:${WEBHOOK_SECRET}`,
    PARTNER_WEBHOOK_INSECURE: 'true',
  };
  harness = await startHarness({
    label: 'journey',
    bffEnv: {
      ...shared,
      ADMIN_API_TOKEN: TOKEN,
      PARTNER_API_KEYS: `acme:aff-acme:${sha256(PARTNER_KEY)}:600`,
      BUYER_API_KEYS: `lead-network:${sha256(BUYER_KEY)}:600`,
      BUYERS_FILE: buyersFile('bff-buyers.json', 'http://127.0.0.1:9'),
    },
  });
  const sandbox = await startLenderSandbox(harness);
  await sandbox.configure({ soldShare: 1, pendingShare: 0 });
  await startWorker(harness, sandbox, { ...shared, BUYERS_FILE: buyersFile('buyers.json', sandbox.url) });
  await createOperator(harness.baseUrl, TOKEN, 'ada@example.com', 'admin');
  await createOperator(harness.baseUrl, TOKEN, 'vic@example.com', 'viewer');
  await createOperator(harness.baseUrl, TOKEN, 'max@example.com', 'manager');

  leads.push(await postPartnerLead('journey.one@example.com', true));
  leads.push(await postPartnerLead('journey.two@example.com', false));
  // The webhook's retry comes after the queue's backoff (10 s).
  await journeyWhen(leads[0]!, (types) => types.filter((t) => t === 'delivery_attempt').length === 2);
  await journeyWhen(leads[1]!, (types) => types.includes('outcome'));
  for (const leadId of leads) {
    const filed = await fetch(`${harness.baseUrl}/api/v1/buyer/returns`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${BUYER_KEY}`,
        'content-type': 'application/json',
        'idempotency-key': `return-${leadId}`,
      },
      body: JSON.stringify({ reference: leadId, reason: 'fraud', note: 'Identity reported stolen' }),
    });
    assert.equal(filed.status, 201, await filed.clone().text());
  }
});

after(async () => {
  await harness?.close();
  await new Promise((resolve) => receiver?.close(resolve));
  await db?.destroy();
  await dropSchema(schema);
  rmSync(folder, { recursive: true, force: true });
});

test('an admin reads the webhook attempts and reveals an answer for a reason, which the audit log keeps', async () => {
  const context = await harness.newContext(1280);
  const page = await context.newPage();
  const errors = collectPageErrors(page);
  await page.goto(`/operator/leads/${leads[0]}`);
  await signInThroughPage(page, 'ada@example.com');
  await page.getByRole('heading', { name: `Lead ${leads[0]}` }).waitFor();
  const timeline = page.getByRole('region', { name: 'Timeline' });
  await timeline.getByRole('heading', { name: 'Webhook to partner acme: failed' }).waitFor();
  await timeline.getByRole('heading', { name: 'Webhook to partner acme: delivered' }).waitFor();
  const text = await timeline.innerText();
  assert.match(text, /Attempt 1 of 8, told sold/);
  assert.match(text, /HTTP 500/);
  assert.match(text, /Next attempt about/);
  assert.match(text, /HTTP 204/);
  assert.match(text, /To 127\.0\.0\.1:\d+/);
  assert.doesNotMatch(text, /funnel-hook/, 'the host only, never the address');

  // Masked until revealed; a reason too short is refused with its message.
  assert.doesNotMatch(await page.locator('main').innerText(), /journey\.one@example\.com/);
  await page.getByLabel('Field').selectOption('email');
  await page.getByLabel('Reason').fill('because');
  await page.getByRole('button', { name: 'Reveal' }).click();
  await page.getByText('Say why you need to see this value, in at least 10 characters.').waitFor();
  await page.getByLabel('Reason').fill(REASON);
  await page.getByRole('button', { name: 'Reveal' }).click();
  const revealed = page.getByRole('definition').filter({ hasText: 'journey.one@example.com' });
  await revealed.waitFor();
  await page.getByLabel('Field').selectOption('socialSecurityNumber');
  await page.getByRole('button', { name: 'Reveal' }).click();
  await page
    .getByRole('definition')
    .filter({ hasText: /^•••• \d{4}$/ })
    .waitFor();
  const storage = await page.evaluate(
    () => JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }),
  );
  assert.doesNotMatch(storage, /journey\.one/, 'nothing revealed is kept in the browser');
  await checkBothWidths(page, 'a lead journey with a revealed value');
  await screenshotBothWidths(page, 'operator-lead-journey-reveal');

  await page.getByRole('link', { name: 'Audit log' }).click();
  // The Action filter offers the actions there are; each entry says what was revealed and why.
  await page.getByLabel('Action').selectOption('leads.reveal');
  await page.getByRole('button', { name: 'Apply filters' }).click();
  const table = page.getByRole('table', { name: 'Newest first; the log cannot be edited.' });
  await table.locator('tbody tr', { hasText: 'Revealed SSN' }).waitFor();
  const rows = await table
    .locator('tbody tr')
    .evaluateAll((trs) =>
      trs.map((tr) => [...tr.querySelectorAll('th, td')].map((c) => c.textContent!.trim())),
    );
  assert.equal(rows.length, 2, JSON.stringify(rows));
  for (const cells of rows)
    assert.deepEqual(cells.slice(1, 5), ['ada@example.com', 'leads.reveal', 'allowed', leads[0]]);
  assert.deepEqual(
    rows.map((cells) => cells[5]),
    [`Revealed SSN (last four), because: ${REASON}`, `Revealed Email, because: ${REASON}`],
  );
  await checkBothWidths(page, 'the audit log after a reveal');
  await screenshotBothWidths(page, 'operator-audit-reveal');
  const entries = await db
    .selectFrom('operator_audit')
    .select(['details'])
    .where('action', '=', 'leads.reveal')
    .execute();
  assert.deepEqual(
    entries.map((e) => e.details),
    [
      { field: 'email', reason: REASON },
      { field: 'socialSecurityNumber', reason: REASON },
    ],
  );
  assert.deepEqual(errors, []);
  await context.close();
});

test('a viewer reads the journey but is not offered the reveal, and the BFF refuses it with 403', async () => {
  const context = await harness.newContext(375);
  const page = await context.newPage();
  await page.goto(`/operator/leads/${leads[0]}`);
  await signInThroughPage(page, 'vic@example.com');
  await page.getByRole('heading', { name: 'Webhook to partner acme: delivered' }).waitFor();
  assert.equal(await page.getByRole('button', { name: 'Reveal' }).count(), 0);
  assert.equal(await page.getByRole('heading', { name: 'Personal data' }).count(), 0);
  const nav = page.getByRole('navigation', { name: 'Console' });
  assert.deepEqual(await nav.getByRole('link').allInnerTexts(), ['Reports', 'Leads', 'Security']);
  const attempt = await page.request.post(`/api/v1/admin/leads/${leads[0]}/reveal`, {
    data: { field: 'email', reason: REASON },
  });
  assert.equal(attempt.status(), 403);
  assert.equal((await attempt.json()).error.code, 'FORBIDDEN');
  await checkBothWidths(page, "a viewer's lead journey");
  await context.close();
});

test("a manager approves one return and rejects another, and each lead's journey shows it", async () => {
  const context = await harness.newContext(375);
  const page = await context.newPage();
  const errors = collectPageErrors(page);
  await page.goto('/operator');
  await signInThroughPage(page, 'max@example.com');
  await page.getByRole('link', { name: 'Returns' }).click();
  await page.getByRole('heading', { name: 'Returns', level: 1 }).waitFor();
  const table = page.getByRole('table', { name: 'Oldest filed first; times in UTC.' });
  await table.locator('tbody tr', { hasText: leads[1]! }).waitFor();
  const text = await table.innerText();
  assert.match(text, /fraud: “Identity reported stolen”/);
  assert.match(text, /at most 10 per month/);
  assert.match(text, /lead-network/);
  await checkBothWidths(page, 'the returns waiting for a decision');
  await screenshotBothWidths(page, 'operator-returns');

  await page.getByRole('button', { name: `Approve the return of ${leads[0]}` }).click();
  await page
    .getByRole('status')
    .filter({ hasText: `The return of ${leads[0]} is approved.` })
    .waitFor();
  await page.getByRole('button', { name: `Reject the return of ${leads[1]}` }).click();
  await page
    .getByRole('status')
    .filter({ hasText: `The return of ${leads[1]} is rejected.` })
    .waitFor();
  await table.getByText('No returns with this status.').waitFor();

  await page.getByLabel('Status').selectOption('approved');
  await page.getByRole('link', { name: leads[0] }).click();
  await page.getByRole('heading', { name: 'Returned by lead-network' }).waitFor();
  assert.match(await page.locator('main').innerText(), /Approved by max@example\.com/);
  await page.goto(`/operator/leads/${leads[1]}`);
  await page.getByRole('heading', { name: 'Return by lead-network refused' }).waitFor();
  // No reveal for a manager either.
  assert.equal(await page.getByRole('button', { name: 'Reveal' }).count(), 0);

  const decisions = await db
    .selectFrom('operator_audit')
    .select(['actor', 'outcome', 'details'])
    .where('action', '=', 'returns.decide')
    .orderBy('audit_id')
    .execute();
  assert.deepEqual(
    decisions.map((d) => [d.actor, d.outcome, (d.details as { decision: string }).decision]),
    [
      ['max@example.com', 'allowed', 'approve'],
      ['max@example.com', 'allowed', 'reject'],
    ],
  );
  assert.deepEqual(errors, []);
  await context.close();
});

test("a manager reverses the approved return for a reason, and the lead's journey shows the sale standing", async () => {
  const context = await harness.newContext(1280);
  const page = await context.newPage();
  const errors = collectPageErrors(page);
  await page.goto('/operator/returns');
  await signInThroughPage(page, 'max@example.com');
  await page.getByLabel('Status').selectOption('approved');
  await page.getByRole('button', { name: `Reverse the return of ${leads[0]}` }).click();
  const panel = page.getByRole('region', { name: `Reverse the approved return of ${leads[0]}` });
  await panel.getByLabel('Reason').fill('oops');
  await panel.getByRole('button', { name: 'Reverse the return' }).click();
  await panel.getByText('Say why the decision is reversed (10 to 500 characters).').waitFor();
  await panel.getByLabel('Reason').fill(REVERSAL);
  await checkBothWidths(page, 'reversing a return');
  await screenshotBothWidths(page, 'operator-return-reverse');
  await panel.getByRole('button', { name: 'Reverse the return' }).click();
  await page
    .getByRole('status')
    .filter({ hasText: `The return of ${leads[0]} is now reversed.` })
    .waitFor();
  await page.getByRole('button', { name: 'Close' }).click();
  await page.getByLabel('Status').selectOption('reversed');
  const table = page.getByRole('table', { name: 'Oldest filed first; times in UTC.' });
  await table.locator('tbody tr', { hasText: 'Approval reversed' }).waitFor();
  await screenshotBothWidths(page, 'operator-returns-reversed');

  await page.getByRole('link', { name: leads[0] }).click();
  await page.getByRole('heading', { name: 'Return by lead-network reversed: the sale stands' }).waitFor();
  assert.match(
    await page.locator('main').innerText(),
    new RegExp(`Why: ${REVERSAL.replace(/[().]/g, '\\$&')}`),
  );
  assert.match(await page.locator('main').innerText(), /By max@example\.com/);
  const reversals = await db
    .selectFrom('operator_audit')
    .select(['actor', 'details'])
    .where('action', '=', 'returns.reverse')
    .execute();
  assert.deepEqual(
    reversals.map((r) => [r.actor, (r.details as { reason: string }).reason]),
    [['max@example.com', REVERSAL]],
  );
  assert.deepEqual(errors, []);
  await context.close();
});
