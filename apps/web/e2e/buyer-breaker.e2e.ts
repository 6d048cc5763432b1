// A buyer's circuit breaker (issue 33, ADR 0022 "Breaker"): a buyer that stops answering is passed over by the
// worker after its configured failures in a row, its leads go to the next buyer with no attempt at it, and the
// Buyers page says so (open until a time, and the leads that skipped it). The built BFF, worker and lender
// sandbox on real Redis and PostgreSQL (a schema of this suite's own), in Chromium at 375 and 1280 px, with axe.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import type { Kysely } from 'kysely';
import { SandboxBuyersStatsSchema } from '@funnel/contracts/sandbox-buyers';
import { migrate, openDatabase, type Database } from '@funnel/db/database';
import { borrowerLead, sendPartnerLead } from '@funnel/testing/lead-traffic';
import { partnerKey } from '@funnel/testing/partner-lead';
import { dropSchema, testDatabaseUrl, testSchema } from '@funnel/testing/postgres';
import { freePort, startHarness, type Harness } from './harness';
import { createOperator, signInThroughPage } from './operator-accounts';
import { assertAccessible, collectPageErrors, screenshotBothWidths } from './page-checks';
import { startWorker } from './submission-pipeline';

const TOKEN = 'e2e-breaker-token-'.padEnd(48, 'k');
const schema = testSchema('breaker_e2e');
const partner = partnerKey('breaker-e2e', 100_000);
let db: Kysely<Database>;
let harness: Harness;
let sandboxUrl: string;
let borrowers = 0;

before(async () => {
  db = openDatabase({ url: testDatabaseUrl(), schema });
  await migrate(db, schema);
  const url = `${testDatabaseUrl()}?options=${encodeURIComponent(`-c search_path=${schema}`)}`;
  const port = await freePort();
  sandboxUrl = `http://127.0.0.1:${port}`;
  const folder = mkdtempSync(path.join(tmpdir(), 'breaker-e2e-'));
  // `stalled` is tried first and never answers in time; its breaker opens after 2 failures, for 10 minutes.
  const buyersFile = path.join(folder, 'buyers.json');
  writeFileSync(
    buyersFile,
    JSON.stringify({
      timeZone: 'America/New_York',
      buyers: [
        {
          id: 'stalled',
          protocol: 'lead-service',
          baseUrl: `${sandboxUrl}/buyers/stalled`,
          tier: 1,
          price: 25,
          timeouts: { attemptMs: 1000, pollMs: 200 },
          breaker: { failures: 2, coolDownMs: 600_000 },
        },
        {
          id: 'backup',
          protocol: 'sync-post',
          baseUrl: `${sandboxUrl}/buyers/backup`,
          tier: 2,
          priceLadder: [0],
        },
      ],
    }),
  );
  const sandboxBuyers = path.join(folder, 'sandbox-buyers.json');
  writeFileSync(
    sandboxBuyers,
    JSON.stringify({
      buyers: [
        // Leaves every lead pending for ten minutes.
        {
          id: 'stalled',
          protocol: 'lead-service',
          seed: 1,
          soldShare: 1,
          pendingShare: 1,
          pendingMinMs: 600_000,
          pendingMaxMs: 600_000,
          latencyMinMs: 0,
          latencyMaxMs: 0,
        },
        {
          id: 'backup',
          protocol: 'sync-post',
          seed: 2,
          interestShare: 1,
          maxValue: 1000,
          latencyMinMs: 0,
          latencyMaxMs: 0,
        },
      ],
    }),
  );
  harness = await startHarness({
    label: 'breaker',
    bffEnv: {
      DATABASE_URL: url,
      ADMIN_API_TOKEN: TOKEN,
      BUYERS_FILE: buyersFile,
      PARTNER_API_KEYS: partner.entry,
    },
  });
  await harness.start({
    name: 'lender-sandbox',
    entry: 'apps/lender-sandbox/dist/server.js',
    readyUrl: `${sandboxUrl}/healthz`,
    env: {
      SANDBOX_HOST: '127.0.0.1',
      SANDBOX_PORT: String(port),
      SANDBOX_PUBLIC_URL: sandboxUrl,
      SANDBOX_LOG_LEVEL: 'warn',
      SANDBOX_BUYERS_FILE: sandboxBuyers,
    },
  });
  await startWorker(harness, { url: sandboxUrl }, { DATABASE_URL: url, BUYERS_FILE: buyersFile });
  await createOperator(harness.baseUrl, TOKEN, 'mia@example.com', 'manager');
});

after(async () => {
  await harness?.close();
  await db?.destroy();
  await dropSchema(schema);
});

/** Attempts each sandbox buyer has received so far. */
async function sandboxAttempts(): Promise<Record<string, number>> {
  const body = SandboxBuyersStatsSchema.parse(await (await fetch(`${sandboxUrl}/_sandbox/buyers`)).json());
  return Object.fromEntries(body.buyers.map((b) => [b.id, b.attempts]));
}

/** Posts `count` partner leads at once and waits for each to be decided. */
async function submitLeads(count: number): Promise<void> {
  const ids = await Promise.all(
    Array.from({ length: count }, () => {
      borrowers += 1;
      return sendPartnerLead({
        baseUrl: harness.baseUrl,
        apiKey: partner.key,
        idempotencyKey: `breaker-e2e-${borrowers}`,
        body: borrowerLead(borrowers),
      });
    }),
  );
  for (const id of ids) {
    for (;;) {
      const response = await fetch(`${harness.baseUrl}/api/v1/partner/leads/${id}`, {
        headers: { authorization: `Bearer ${partner.key}` },
      });
      const { decidedAt } = (await response.json()) as { decidedAt?: string };
      if (decidedAt) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}

test('a buyer that stops answering is passed over once its breaker opens, and the Buyers page says until when', async () => {
  // Two leads planned together both try `stalled` (its breaker is closed then) and time out: it opens.
  await submitLeads(2);
  const opened = await sandboxAttempts();
  assert.equal(opened.stalled, 2);
  assert.equal(opened.backup, 2, 'each lead went on to the next buyer');
  // The next leads go straight to the next buyer: no attempt at the broken one.
  await submitLeads(3);
  const skipped = await sandboxAttempts();
  assert.equal(skipped.stalled, 2, 'no attempt while the breaker is open');
  assert.equal(skipped.backup, 5);

  const context = await harness.newContext(1280);
  const page = await context.newPage();
  const errors = collectPageErrors(page);
  await page.goto('/operator');
  await signInThroughPage(page, 'mia@example.com');
  await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Buyers' }).click();
  await page.getByRole('heading', { name: 'Buyers', level: 1 }).waitFor();
  const health = page.getByRole('region', { name: 'Buyers, last 15 minutes' });
  const stalled = health.getByRole('row', { name: /^stalled / });
  await stalled.getByRole('cell', { name: /^Open until \d\d:\d\d:\d\d$/ }).waitFor();
  const cells = await stalled.getByRole('cell').allTextContents();
  assert.ok(cells.includes('3'), `three leads skipped stalled: ${cells.join(' | ')}`);
  const backup = health.getByRole('row', { name: /^backup / });
  assert.ok((await backup.getByRole('cell').allTextContents()).includes('Closed'));
  for (const width of [375, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await assertAccessible(page, `the buyers page with an open breaker at ${width} px`);
  }
  await screenshotBothWidths(page, 'operator-buyers-breaker');
  assert.deepEqual(errors, []);
  await context.close();
});
