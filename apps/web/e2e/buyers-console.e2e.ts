// Buyers managed live (issue 33, ADR 0022): a manager pauses a buyer in the console, and the worker offers it none
// of the leads submitted after; a resume brings it back; a viewer is neither offered the page nor let through by
// the BFF; the audit log names the manager. The built BFF, worker and lender sandbox on real Redis and PostgreSQL
// (a schema of this suite's own), in Chromium, at 375 and 1280 px, checked with axe.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import { noteBuyerWorker } from '@funnel/server-runtime/buyer-config-signal';
import { openBuyersPage, startBuyersStack, type BuyersStack } from './buyers-stack';
import { createOperator, signInThroughPage } from './operator-accounts';
import { assertAccessible, screenshotBothWidths } from './page-checks';

const TOKEN = 'e2e-buyers-token-'.padEnd(48, 'b');
const LEADS_WHILE_PAUSED = 50;
const TEST_TIMEOUT_MS = 240_000;
let stack: BuyersStack;

before(async () => {
  // Two buyers that take every lead: `first` is tried first, `second` after it.
  stack = await startBuyersStack({
    label: 'buyers',
    adminToken: TOKEN,
    buyers: (sandboxUrl) =>
      ['first', 'second'].map((id, i) => ({
        id,
        protocol: 'sync-post',
        baseUrl: `${sandboxUrl}/buyers/${id}`,
        apiKey: `${id}-credential-never-shown`,
        tier: i + 1,
        priceLadder: [0],
      })),
    sandboxBuyers: ['first', 'second'].map((id, i) => ({
      id,
      protocol: 'sync-post',
      seed: i + 1,
      interestShare: 1,
      maxValue: 1000,
      latencyMinMs: 0,
      latencyMaxMs: 0,
    })),
  });
  await createOperator(stack.harness.baseUrl, TOKEN, 'mia@example.com', 'manager');
  await createOperator(stack.harness.baseUrl, TOKEN, 'vic@example.com', 'viewer');
});

after(async () => {
  await stack?.close();
});

/** Waits until the console says the worker runs the version the page shows (health is read every 5 s). */
async function workerOnShownVersion(page: Page): Promise<void> {
  await page.waitForFunction(() =>
    [...document.querySelectorAll('[role=status]')].some((e) =>
      /^Version (\d+),.*workers: [^,]+ on version \1$/.test(e.textContent ?? ''),
    ),
  );
}

test('a viewer is not offered the buyers, and the BFF refuses them with 403', async () => {
  const context = await stack.harness.newContext(375);
  const page = await context.newPage();
  await page.goto('/operator');
  await signInThroughPage(page, 'vic@example.com');
  await page.getByRole('heading', { name: 'Funnel and sales reports' }).waitFor();
  const nav = page.getByRole('navigation', { name: 'Console' });
  assert.equal(await nav.getByRole('link', { name: 'Buyers' }).count(), 0);
  await page.goto('/operator/buyers');
  await page.getByRole('alert').waitFor();
  assert.equal(await page.getByRole('button', { name: /^Pause / }).count(), 0, 'the action is hidden');
  for (const route of ['/api/v1/admin/buyers', '/api/v1/admin/buyers/health']) {
    assert.equal((await page.request.get(route)).status(), 403, route);
  }
  assert.equal((await page.request.post('/api/v1/admin/buyers/first/pause')).status(), 403);
  await context.close();
});

test(
  'a paused buyer gets no attempt of the leads submitted after the pause, and gets them again once resumed',
  { timeout: TEST_TIMEOUT_MS },
  async () => {
    const { context, page, errors } = await openBuyersPage(stack.harness, 'mia@example.com');
    const health = page.getByRole('region', { name: 'Buyers, last 15 minutes' });
    await health.getByRole('button', { name: 'Pause first' }).waitFor();
    assert.ok(!(await page.content()).includes('credential-never-shown'), 'no credential on the page');
    for (const width of [375, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      await assertAccessible(page, `the buyers page at ${width} px`);
    }
    await screenshotBothWidths(page, 'operator-buyers');

    // The sample lead, sent by the worker through the buyer's adapter: the sandbox buyer takes every lead.
    await page.getByRole('button', { name: 'Send the sample lead' }).click();
    await page.getByText(/^first answered the sample lead: sold at \$\d/).waitFor();

    await health.getByRole('button', { name: 'Pause first' }).click();
    await health.getByRole('button', { name: 'Resume first' }).waitFor();
    await workerOnShownVersion(page);
    const before = await stack.sandboxAttempts();
    await stack.submitLeads(LEADS_WHILE_PAUSED);
    const paused = await stack.sandboxAttempts();
    assert.equal(paused.first! - before.first!, 0, 'the paused buyer got no attempt');
    assert.equal(paused.second! - before.second!, LEADS_WHILE_PAUSED, 'the other buyer got every lead');

    await health.getByRole('button', { name: 'Resume first' }).click();
    await health.getByRole('button', { name: 'Pause first' }).waitFor();
    await workerOnShownVersion(page);
    await stack.submitLeads(1);
    const resumed = await stack.sandboxAttempts();
    assert.equal(resumed.first! - paused.first!, 1, 'the resumed buyer is offered leads again');

    await page
      .getByRole('region', { name: 'Who changed the buyers, and when' })
      .getByText('paused first')
      .waitFor();
    // The download link: the buyers file's format, every credential left out.
    const href = await page.getByRole('link', { name: 'Download the buyers file' }).getAttribute('href');
    const exported = await page.request.get(href!);
    assert.equal(exported.status(), 200);
    const file = (await exported.json()) as { buyers: { id: string; apiKey?: string }[] };
    assert.deepEqual(
      file.buyers.map((b) => [b.id, b.apiKey]),
      [
        ['first', undefined],
        ['second', undefined],
      ],
    );
    assert.deepEqual(errors, []);
    await context.close();
  },
);

test(
  'a partner lead found by its idempotency key shows every attempt the sandbox recorded',
  { timeout: TEST_TIMEOUT_MS },
  async () => {
    // The manager gives `first` a two-rung price ladder: $2,000, above anything the sandbox buyer pays, then $0.
    // Each lead is then declined by `first` once and bought by it at the second rung: two attempts.
    const { context, page, errors } = await openBuyersPage(stack.harness, 'mia@example.com');
    const nav = page.getByRole('navigation', { name: 'Console' });
    const settings = page.getByLabel('Settings (the buyers file’s JSON)');
    await settings.waitFor();
    const edited = { ...JSON.parse(await settings.inputValue()), priceLadder: [2000, 0] };
    await settings.fill(JSON.stringify(edited, null, 2));
    await page.getByRole('button', { name: 'Save first' }).click();
    const saved = page.getByText(/^Saved as version \d+/);
    const refused = page.locator('#buyer-errors');
    await saved.or(refused).waitFor();
    assert.equal(await refused.count(), 0, await refused.innerText().catch(() => ''));
    // The versions say what changed, and only that.
    await page
      .getByRole('region', { name: 'Who changed the buyers, and when' })
      .getByText('updated first: priceLadder', { exact: true })
      .waitFor();
    await workerOnShownVersion(page);

    const { leadId, idempotencyKey } = (await stack.submitLeads(1))[0]!;
    // What the sandbox's buyers recorded for this lead: the walk's attempt keys are `<lead>-<step>`.
    const recorded: string[] = [];
    for (const buyer of ['first', 'second']) {
      for (let step = 0; step < 4; step += 1) {
        const held = await fetch(`${stack.sandboxUrl}/buyers/${buyer}/_sandbox/attempts/${leadId}-${step}`);
        if (held.status !== 200) continue;
        const { answer } = (await held.json()) as { answer: { Result: string } };
        recorded.push(`${buyer} ${answer.Result === 'Sold' ? 'bought it' : 'declined'}`);
      }
    }
    assert.deepEqual(recorded, ['first declined', 'first bought it']);

    // Found by the partner and its key, as an operator would when the partner calls about their order.
    await nav.getByRole('link', { name: 'Leads' }).click();
    await page.getByLabel('Partner id').fill(stack.partnerId);
    await page.getByLabel('Idempotency key').fill(idempotencyKey);
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByRole('heading', { name: '1 found' }).waitFor();
    await page.getByRole('link', { name: leadId }).click();
    await page.getByRole('heading', { name: `Lead ${leadId}` }).waitFor();
    // The attempts reach the system of record through the event drain: read again until the outcome is there.
    const titles = async () => (await page.locator('ol li h3').allInnerTexts()).map((t) => t.trim());
    while (!(await titles()).includes('Outcome: Sold')) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      await page.reload();
      await page.getByRole('heading', { name: 'Timeline' }).waitFor();
    }
    const attempts = (await titles()).filter((t) => /^(first|second) /.test(t));
    assert.deepEqual(attempts, recorded);
    assert.deepEqual(errors, []);
    await context.close();
  },
);

test('the audit log lists the pause and the resume with the manager who did them', async () => {
  const response = await fetch(`${stack.harness.baseUrl}/api/v1/admin/audit?outcome=allowed&limit=200`, {
    headers: { authorization: `Bearer ${TOKEN}` },
  });
  const { entries } = (await response.json()) as {
    entries: { action: string; actor: string; buyer: string | null }[];
  };
  const changes = entries
    .filter((e) => e.action === 'buyers.pause' || e.action === 'buyers.resume')
    .map((e) => [e.action, e.actor, e.buyer]);
  assert.deepEqual(changes, [
    ['buyers.resume', 'mia@example.com', 'first'],
    ['buyers.pause', 'mia@example.com', 'first'],
  ]);
});

test(
  'the page lists a stopped worker as gone, and a buyer an admin moved to another origin as needing its key',
  { timeout: TEST_TIMEOUT_MS },
  async () => {
    const { harness } = stack;
    // A worker killed 40 minutes ago: its last note stays, and it must not read as running version 1.
    const lastSeen = Date.now() - 40 * 60_000;
    await noteBuyerWorker(harness.redis, harness.config.keyPrefix, 'worker-killed', {
      version: 1,
      appliedAt: lastSeen,
      seenAt: lastSeen,
      everyMs: 2000,
    });
    // An admin moves `second` to another origin (the sandbox by another name) without entering its key.
    const admin = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };
    const route = `${harness.baseUrl}/api/v1/admin/buyers/second`;
    const {
      hasApiKey: _key,
      paused: _paused,
      needsKey: _needsKey,
      ...second
    } = (await (await fetch(route, { headers: admin })).json()) as Record<string, unknown> & {
      baseUrl: string;
    };
    const elsewhere = { ...second, baseUrl: second.baseUrl.replace('127.0.0.1', 'localhost') };
    const moved = await fetch(route, { method: 'PUT', headers: admin, body: JSON.stringify(elsewhere) });
    assert.equal(moved.status, 200, await moved.text());

    const { context, page, errors } = await openBuyersPage(harness, 'mia@example.com');
    const health = page.getByRole('region', { name: 'Buyers, last 15 minutes' });
    const secondRow = health.getByRole('row').filter({ hasText: /^second/ });
    await secondRow.getByRole('cell', { name: 'Needs its key', exact: true }).waitFor();
    await page
      .getByRole('status')
      .filter({ hasText: /gone: worker-killed \(last seen .+, on version 1\)$/ })
      .waitFor();
    const status = await page.getByRole('status').filter({ hasText: 'workers:' }).innerText();
    assert.ok(!/worker-killed on version/.test(status), status);
    await screenshotBothWidths(page, 'operator-buyers-needs-key');

    // Once an admin enters its key, it is live again.
    const keyed = await fetch(route, {
      method: 'PUT',
      headers: admin,
      body: JSON.stringify({ ...elsewhere, apiKey: 'second-key-for-its-new-address' }),
    });
    assert.equal(keyed.status, 200, await keyed.text());
    await secondRow.getByRole('cell', { name: 'Live', exact: true }).waitFor();
    assert.deepEqual(errors, []);
    await context.close();
  },
);
