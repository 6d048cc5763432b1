// The stack the buyers' browser tests run (issue 33, ADR 0022): the built BFF, worker and lender sandbox on real
// Redis and PostgreSQL (a schema of the suite's own), the BFF and worker reading one buyers file whose buyers the
// sandbox plays, a partner to post leads with, and an admin token to create operators with.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Kysely } from 'kysely';
import type { BrowserContext, Page } from 'playwright-core';
import { SandboxBuyersStatsSchema } from '@funnel/contracts/sandbox-buyers';
import { migrate, openDatabase, type Database } from '@funnel/db/database';
import { borrowerLead, sendPartnerLead } from '@funnel/testing/lead-traffic';
import { partnerKey } from '@funnel/testing/partner-lead';
import { dropSchema, testDatabaseUrl, testSchema } from '@funnel/testing/postgres';
import { freePort, startHarness, type Harness } from './harness';
import { signInThroughPage } from './operator-accounts';
import { collectPageErrors } from './page-checks';
import { startWorker } from './submission-pipeline';

export interface BuyersStack {
  harness: Harness;
  sandboxUrl: string;
  /** The partner's id, as the lead search asks for it. */
  partnerId: string;
  /** Attempts each sandbox buyer has received so far. */
  sandboxAttempts(): Promise<Record<string, number>>;
  /** Posts `count` partner leads at once and waits for each to be decided; answers their ids and keys. */
  submitLeads(count: number): Promise<Array<{ leadId: string; idempotencyKey: string }>>;
  close(): Promise<void>;
}

export async function startBuyersStack(options: {
  label: string;
  adminToken: string;
  /** The buyers file's buyers, given the sandbox's address. */
  buyers: (sandboxUrl: string) => unknown[];
  /** The sandbox's buyers (SANDBOX_BUYERS_FILE). */
  sandboxBuyers: unknown[];
}): Promise<BuyersStack> {
  const schema = testSchema(`${options.label}_e2e`);
  const partnerId = `${options.label}-e2e`;
  const partner = partnerKey(partnerId, 100_000);
  const db: Kysely<Database> = openDatabase({ url: testDatabaseUrl(), schema });
  await migrate(db, schema);
  const url = `${testDatabaseUrl()}?options=${encodeURIComponent(`-c search_path=${schema}`)}`;
  const port = await freePort();
  const sandboxUrl = `http://127.0.0.1:${port}`;
  const folder = mkdtempSync(path.join(tmpdir(), `${options.label}-e2e-`));
  const buyersFile = path.join(folder, 'buyers.json');
  writeFileSync(
    buyersFile,
    JSON.stringify({ timeZone: 'America/New_York', buyers: options.buyers(sandboxUrl) }),
  );
  const sandboxBuyers = path.join(folder, 'sandbox-buyers.json');
  writeFileSync(sandboxBuyers, JSON.stringify({ buyers: options.sandboxBuyers }));
  const harness = await startHarness({
    label: options.label,
    bffEnv: {
      DATABASE_URL: url,
      ADMIN_API_TOKEN: options.adminToken,
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

  let borrowers = 0;
  return {
    harness,
    sandboxUrl,
    partnerId,
    async sandboxAttempts() {
      const body = SandboxBuyersStatsSchema.parse(
        await (await fetch(`${sandboxUrl}/_sandbox/buyers`)).json(),
      );
      return Object.fromEntries(body.buyers.map((b) => [b.id, b.attempts]));
    },
    async submitLeads(count) {
      const leads = await Promise.all(
        Array.from({ length: count }, async () => {
          borrowers += 1;
          const idempotencyKey = `${partnerId}-${borrowers}`;
          const leadId = await sendPartnerLead({
            baseUrl: harness.baseUrl,
            apiKey: partner.key,
            idempotencyKey,
            body: borrowerLead(borrowers),
          });
          return { leadId, idempotencyKey };
        }),
      );
      for (const { leadId } of leads) {
        for (;;) {
          const response = await fetch(`${harness.baseUrl}/api/v1/partner/leads/${leadId}`, {
            headers: { authorization: `Bearer ${partner.key}` },
          });
          const { decidedAt } = (await response.json()) as { decidedAt?: string };
          if (decidedAt) break;
          await new Promise((resolve) => setTimeout(resolve, 200));
        }
      }
      return leads;
    },
    async close() {
      await harness.close();
      await db.destroy();
      await dropSchema(schema);
    },
  };
}

/** A new 1280 px tab in which `email` signs in and opens the Buyers page from the console's navigation. */
export async function openBuyersPage(
  harness: Harness,
  email: string,
): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const context = await harness.newContext(1280);
  const page = await context.newPage();
  const errors = collectPageErrors(page);
  await page.goto('/operator');
  await signInThroughPage(page, email);
  await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Buyers' }).click();
  await page.getByRole('heading', { name: 'Buyers', level: 1 }).waitFor();
  return { context, page, errors };
}
