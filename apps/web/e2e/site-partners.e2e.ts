// The Partners page (spec §2 "Partners page"): the configured names, then those of the partner source through
// GET /api/v1/partners; when the source fails, the configured names still show.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import { freePort, startHarness, type Harness } from './harness';
import { assertAccessible, screenshotBothWidths } from './page-checks';
import { openPage } from './site-driver';

const FIXED = ['Harbor Line Lending', 'Crestview Loan Partners'];
const FROM_SOURCE = ['Summit Trail Credit', 'Lakeside Funding Co'];

let harness: Harness;
let source: Server;
/** What the partner source answers next: its names, or a failure. */
let sourceAnswers: 'names' | 'failure' = 'names';

before(async () => {
  const port = await freePort();
  // The partner source of spec §7: an object whose keys are partner names.
  source = createServer((_request, response) => {
    if (sourceAnswers === 'failure') {
      response.writeHead(503).end();
      return;
    }
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify(Object.fromEntries(FROM_SOURCE.map((name) => [name, { active: true }]))));
  });
  await new Promise<void>((resolve) => source.listen(port, '127.0.0.1', resolve));
  harness = await startHarness({
    label: 'site-partners',
    bffEnv: { PARTNER_NAMES: FIXED.join(','), PARTNER_SOURCE_URL: `http://127.0.0.1:${port}/api/partner` },
  });
});

after(async () => {
  await harness?.close();
  await new Promise((resolve) => source?.close(resolve));
});

async function listedPartners(page: Page): Promise<string[]> {
  const list = page.getByRole('list', { name: 'Lenders and marketing partners' });
  await list.waitFor();
  return (await list.getByRole('listitem').allInnerTexts()).map((name) => name.trim());
}

test('the partners page lists the configured names, then the partner source’s', async () => {
  sourceAnswers = 'names';
  const { context, page, errors } = await openPage(harness, '/partners');
  assert.deepEqual(await listedPartners(page), [...FIXED, ...FROM_SOURCE]);
  await assertAccessible(page, 'partners');
  await screenshotBothWidths(page, 'site-partners-with-source');
  assert.deepEqual(errors, []);
  await context.close();
});

test('a failing partner source still leaves the configured names', async () => {
  sourceAnswers = 'failure';
  // The BFF keeps the source's answer for a while; this test starts from an empty cache.
  await harness.redis.del(`${harness.config.keyPrefix}partners:source-names`);
  const { context, page, errors } = await openPage(harness, '/partners');
  assert.deepEqual(await listedPartners(page), FIXED);
  assert.ok(
    ((await page.locator('main').textContent()) ?? '').includes('Postal code data © GeoNames'),
    'the data credits stay',
  );
  assert.deepEqual(errors, []);
  await context.close();
});
