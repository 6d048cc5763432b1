// A borrower already submitted, typed again in another browser that also sends the first browser's visitor id
// (issue 23, finding 1): the second browser sees the duplicate's own screen (issue 25), and never the first lead's
// outcome or its lender's address. The built BFF, worker and lender sandbox with real Redis, driven through Chromium.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { CONSENT_VERSION } from '@funnel/contracts/consent';
import { ATTRIBUTION_COOKIES } from '@funnel/contracts/attribution';
import { API_ANSWERS, answer, leadBefore } from './funnel-driver';
import { startHarness, type Harness } from './harness';
import { collectPageErrors, openScreen } from './page-checks';
import { startLenderSandbox, startWorker, type LenderSandbox } from './submission-pipeline';

const VISITOR_ID = 'v-first-browser-1';

let harness: Harness;
let sandbox: LenderSandbox;

before(async () => {
  harness = await startHarness({ label: 'duplicate', bffEnv: { DUPLICATE_WINDOW_DAYS: '30' } });
  sandbox = await startLenderSandbox(harness);
  await startWorker(harness, sandbox);
});

after(async () => {
  await harness?.close();
});

test(
  "a duplicate borrower is told it already applied, and never sees the first lead's lender",
  { timeout: 120_000 },
  async () => {
    await sandbox.configure({ soldShare: 1, pendingShare: 0 });
    const visitorCookie = (context: Awaited<ReturnType<Harness['newContext']>>) =>
      context.addCookies([{ name: ATTRIBUTION_COOKIES.visitorId, value: VISITOR_ID, url: harness.baseUrl }]);

    // The first browser submits and is sold.
    const first = await harness.newContext();
    await visitorCookie(first);
    await leadBefore(first, 'ssn');
    await first.request.put('/api/v1/lead/steps/ssn', { data: API_ANSWERS.ssn });
    const submitted = await first.request.post('/api/v1/lead/submit', {
      data: { button: 'REQUEST_FUNDS', consentVersion: CONSENT_VERSION, pagePath: '/ssn' },
    });
    assert.equal(submitted.status(), 202, await submitted.text());
    let sold: { outcome?: string; redirectUrl?: string } = {};
    for (let i = 0; i < 100 && sold.outcome !== 'sold'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      sold =
        ((await (await first.request.get('/api/v1/lead')).json()) as { outcome?: typeof sold }).outcome ?? {};
    }
    assert.equal(sold.outcome, 'sold');
    assert.ok(sold.redirectUrl?.startsWith(sandbox.url));

    // Another browser types the same person and sends the first browser's visitor id.
    const second = await harness.newContext();
    second.setDefaultTimeout(20_000);
    await visitorCookie(second);
    await leadBefore(second, 'ssn');
    const page = await second.newPage();
    const errors = collectPageErrors(page);
    const visited: string[] = [];
    page.on('request', (request) => visited.push(request.url()));
    const bodies: string[] = [];
    page.on('response', async (response) => {
      if (response.url().includes('/api/v1/lead')) bodies.push(await response.text().catch(() => ''));
    });
    await openScreen(page, '/ssn');
    await page.getByRole('heading', { level: 1 }).waitFor();
    await answer(page, 'ssn');
    await page.getByRole('button', { name: 'Request Funds', exact: true }).click();
    await page.waitForURL('**/redirect-upgrade', { timeout: 30_000 });
    await page
      .getByRole('heading', { level: 1, name: 'We are sorry! You have already sent us a request' })
      .waitFor();

    const lead = (await (await second.request.get('/api/v1/lead')).json()) as {
      outcome?: Record<string, unknown>;
    };
    assert.equal(lead.outcome?.outcome, 'no_lender');
    assert.equal(lead.outcome?.reason, 'duplicate');
    assert.equal(lead.outcome?.redirectUrl, undefined);
    assert.ok(
      !visited.some((url) => url.startsWith(sandbox.url)),
      'the browser never went to the first lender',
    );
    assert.ok(
      !bodies.some((body) => body.includes(String(sold.redirectUrl))),
      "no answer carried the lender's address",
    );
    assert.ok(!(await page.content()).includes(String(sold.redirectUrl)));
    assert.deepEqual(errors, []);
    await first.close();
    await second.close();
  },
);
