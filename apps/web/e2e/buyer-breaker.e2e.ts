// A buyer's circuit breaker (issue 33, ADR 0022 "Breaker"): a buyer that stops answering is passed over by the
// worker after its configured failures in a row, its leads go to the next buyer with no attempt at it, and the
// Buyers page says so (open until a time, and the leads that skipped it). The built BFF, worker and lender
// sandbox on real Redis and PostgreSQL (a schema of this suite's own), in Chromium at 375 and 1280 px, with axe.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { openBuyersPage, startBuyersStack, type BuyersStack } from './buyers-stack';
import { createOperator } from './operator-accounts';
import { assertAccessible, screenshotBothWidths } from './page-checks';

const TOKEN = 'e2e-breaker-token-'.padEnd(48, 'k');
let stack: BuyersStack;

before(async () => {
  // `stalled` is tried first and never answers in time; its breaker opens after 2 failures, for 10 minutes.
  stack = await startBuyersStack({
    label: 'breaker',
    adminToken: TOKEN,
    buyers: (sandboxUrl) => [
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
    sandboxBuyers: [
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
  });
  await createOperator(stack.harness.baseUrl, TOKEN, 'mia@example.com', 'manager');
});

after(async () => {
  await stack?.close();
});

test('a buyer that stops answering is passed over once its breaker opens, and the Buyers page says until when', async () => {
  // Two leads planned together both try `stalled` (its breaker is closed then) and time out: it opens.
  await stack.submitLeads(2);
  const opened = await stack.sandboxAttempts();
  assert.equal(opened.stalled, 2);
  assert.equal(opened.backup, 2, 'each lead went on to the next buyer');
  // The next leads go straight to the next buyer: no attempt at the broken one.
  await stack.submitLeads(3);
  const skipped = await stack.sandboxAttempts();
  assert.equal(skipped.stalled, 2, 'no attempt while the breaker is open');
  assert.equal(skipped.backup, 5);

  const { context, page, errors } = await openBuyersPage(stack.harness, 'mia@example.com');
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
