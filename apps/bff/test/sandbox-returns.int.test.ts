import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SAMPLE_LEAD } from '@funnel/contracts/sample-lead';
import { SandboxBuyersStatsSchema } from '@funnel/contracts/sandbox-buyers';
import { buildSyncPostPayload } from '@funnel/contracts/sync-post-network';
import { migrate, openDatabase, type Database } from '@funnel/db/database';
import { recordEvents } from '@funnel/db/record-events';
import { dropSchema, testDatabaseUrl, testSchema } from '@funnel/testing/postgres';
import { freePort, startApp, type AppProcess } from '@funnel/testing/processes';
import { soldLeadEvents } from '@funnel/testing/sold-lead';
import { buyerKey, writePrimeBuyersFile } from './buyer-keys.js';
import { startTestApp, type TestApp } from './test-app.js';

/**
 * The sandbox plays a returning buyer against the real buyer API (issue 27): a sync-post buyer with `returns`
 * sells a lead, then, after its seeded delay, returns it through `SANDBOX_RETURNS_URL` with its own key.
 */
describe('a sandbox buyer returning what it bought through the buyer API', () => {
  const schema = testSchema('sandboxret');
  const url = `${testDatabaseUrl()}?options=${encodeURIComponent(`-c search_path=${schema}`)}`;
  const folder = mkdtempSync(path.join(tmpdir(), 'sandbox-returns-'));
  const { key, entry } = buyerKey('prime', 600);
  let db: Kysely<Database>;
  let t: TestApp;
  let sandbox: AppProcess;
  let sandboxUrl: string;

  beforeAll(async () => {
    db = openDatabase({ url: testDatabaseUrl(), schema });
    await migrate(db, schema);
    const buyersFile = writePrimeBuyersFile(folder, {
      windowDays: 7,
      cap: { count: 5, period: 'day' },
      autoApprove: true,
    });
    t = await startTestApp({
      env: {
        DATABASE_URL: url,
        BUYERS_FILE: buyersFile,
        BUYER_API_KEYS: entry,
      },
    });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const bffUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;

    const sandboxBuyers = path.join(folder, 'sandbox-buyers.json');
    writeFileSync(
      sandboxBuyers,
      JSON.stringify({
        buyers: [
          {
            id: 'prime',
            protocol: 'sync-post',
            seed: 11,
            interestShare: 1,
            latencyMinMs: 0,
            latencyMaxMs: 0,
            returns: { rate: 1, delayMinMs: 200, delayMaxMs: 400, apiKey: key, reasons: ['duplicate'] },
          },
        ],
      }),
    );
    const port = await freePort();
    sandboxUrl = `http://127.0.0.1:${port}`;
    sandbox = await startApp({
      entry: 'apps/lender-sandbox/src/server.ts',
      env: {
        SANDBOX_PORT: String(port),
        SANDBOX_PUBLIC_URL: sandboxUrl,
        SANDBOX_LOG_LEVEL: 'warn',
        SANDBOX_BUYERS_FILE: sandboxBuyers,
        SANDBOX_RETURNS_URL: bffUrl,
      },
      readyUrl: `${sandboxUrl}/healthz`,
    });
  });
  afterAll(async () => {
    await sandbox?.stop();
    await t.close();
    await db.destroy();
    await dropSchema(schema);
    rmSync(folder, { recursive: true, force: true });
  });

  it('returns the sale after its delay, and the return is approved and recorded against the sale', async () => {
    const leadId = randomBytes(16).toString('base64url');
    // The sale as the worker's waterfall records it, then the post the buyer answers.
    await recordEvents(db, soldLeadEvents(leadId, { buyer: 'prime', price: 12, at: new Date() }));
    const payload = buildSyncPostPayload(
      SAMPLE_LEAD,
      {
        leadId,
        tracking: {},
        userIp: '203.0.113.45',
        userAgent: 'sandbox-returns',
        webSiteUrl: 'https://loans.example/apply',
      },
      { idempotencyKey: `${leadId}-0`, minimumPrice: 0, maxResponseSeconds: 30 },
    );
    const answer = await fetch(`${sandboxUrl}/buyers/prime/api/v2/leads`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(payload),
    });
    expect(((await answer.json()) as { Result: string }).Result).toBe('Sold');

    const deadline = Date.now() + 10_000;
    let row;
    while (
      !(row = await db
        .selectFrom('sale_returns')
        .selectAll()
        .where('lead_id', '=', leadId)
        .executeTakeFirst())
    ) {
      if (Date.now() > deadline) throw new Error(`no return arrived:\n${sandbox.output()}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(row).toMatchObject({
      buyer: 'prime',
      reason: 'duplicate',
      status: 'approved',
      decided_by: 'rule',
    });
    // The sandbox counts the return as accepted once the BFF's answer reaches it, which can be just after the row
    // is committed.
    const returns = async () =>
      SandboxBuyersStatsSchema.parse(await (await fetch(`${sandboxUrl}/_sandbox/buyers`)).json()).buyers[0]
        ?.returns;
    await expect.poll(returns, { timeout: 5_000 }).toEqual({ sent: 1, accepted: 1, refused: 0, failed: 0 });
  });
});
