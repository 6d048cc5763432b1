// Cross-site request forgery from the same site (issue 40, point 3; docs/adr/0025). The operator's cookie is
// SameSite=Strict, yet a page on another port of 127.0.0.1 is same-site: its browser sends the cookie. A signed-in
// manager who opens such a page must not pause a buyer through it; the console itself still can. A real BFF on
// real Redis and PostgreSQL, in Chromium.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import type { Kysely } from 'kysely';
import { migrate, openDatabase, type Database } from '@funnel/db/database';
import { dropSchema, testDatabaseUrl, testSchema } from '@funnel/testing/postgres';
import { openBuyersPage } from './buyers-stack';
import { freePort, startHarness, type Harness } from './harness';
import { createOperator } from './operator-accounts';

const TOKEN = 'e2e-csrf-token-'.padEnd(48, 'f');
const schema = testSchema('csrf_e2e');
const folder = mkdtempSync(path.join(tmpdir(), 'csrf-e2e-'));
let db: Kysely<Database>;
let harness: Harness;
let attacker: Server;
let attackerUrl: string;

/** The page a manager is lured to: it fires the body-less POST a `no-cors` fetch can make, then says so. */
function attackerPage(bffUrl: string): string {
  return `<!doctype html><html><head><title>Win a prize</title></head><body><p>Loading…</p><script>
fetch(${JSON.stringify(`${bffUrl}/api/v1/admin/buyers/prime/pause`)}, {
  method: 'POST', mode: 'no-cors', credentials: 'include',
}).finally(() => { document.title = 'sent'; });
</script></body></html>`;
}

async function buyerPaused(): Promise<boolean> {
  const response = await fetch(`${harness.baseUrl}/api/v1/admin/buyers`, {
    headers: { authorization: `Bearer ${TOKEN}` },
  });
  const body = (await response.json()) as { buyers: Array<{ id: string; paused: boolean }> };
  return body.buyers.find((b) => b.id === 'prime')!.paused;
}

before(async () => {
  db = openDatabase({ url: testDatabaseUrl(), schema });
  await migrate(db, schema);
  const buyersFile = path.join(folder, 'buyers.json');
  writeFileSync(
    buyersFile,
    JSON.stringify({
      timeZone: 'America/New_York',
      buyers: [
        {
          id: 'prime',
          protocol: 'sync-post',
          baseUrl: 'http://127.0.0.1:9/buyers/prime',
          apiKey: 'prime-credential-never-shown',
          tier: 1,
          priceLadder: [0],
        },
      ],
    }),
  );
  const url = `${testDatabaseUrl()}?options=${encodeURIComponent(`-c search_path=${schema}`)}`;
  harness = await startHarness({
    label: 'csrf',
    bffEnv: { DATABASE_URL: url, ADMIN_API_TOKEN: TOKEN, BUYERS_FILE: buyersFile },
  });
  await createOperator(harness.baseUrl, TOKEN, 'mia@example.com', 'manager');
  const html = attackerPage(harness.baseUrl);
  attacker = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html);
  });
  const port = await freePort();
  await new Promise<void>((resolve) => attacker.listen(port, '127.0.0.1', resolve));
  attackerUrl = `http://127.0.0.1:${port}/`;
});

after(async () => {
  await new Promise((resolve) => attacker?.close(resolve));
  await harness?.close();
  await db?.destroy();
  await dropSchema(schema);
  rmSync(folder, { recursive: true, force: true });
});

test("a same-site page cannot pause a buyer with a signed-in manager's cookie; the console can", async () => {
  const { context, page, errors } = await openBuyersPage(harness, 'mia@example.com');
  const health = page.getByRole('region', { name: 'Buyers, last 15 minutes' });
  await health.getByRole('button', { name: 'Pause prime' }).waitFor();

  // The manager, still signed in, opens the other page in a new tab of the same browser.
  const lure = await context.newPage();
  const forged = lure.waitForRequest((r) => r.url().endsWith('/api/v1/admin/buyers/prime/pause'));
  await lure.goto(attackerUrl);
  // The page cannot read the answer (the BFF's Cross-Origin-Resource-Policy), but its fetch settles only once
  // the BFF has answered.
  await lure.waitForFunction(() => document.title === 'sent');
  await forged;
  // The manager's session is live in this browser (its cookie goes with same-site requests); the BFF did not act.
  const session = await context.cookies(`${harness.baseUrl}/api/v1/admin/buyers/prime/pause`);
  assert.ok(session.some((c) => c.name === 'funnel_operator' && c.sameSite === 'Strict'));
  assert.equal(await buyerPaused(), false, 'the buyer is still active');
  await lure.close();

  await health.getByRole('button', { name: 'Pause prime' }).click();
  await health.getByRole('button', { name: 'Resume prime' }).waitFor();
  assert.equal(await buyerPaused(), true, 'the console paused it');
  assert.deepEqual(errors, []);
  await context.close();
});
