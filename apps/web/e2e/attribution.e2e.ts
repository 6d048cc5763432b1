// Attribution and consent evidence in the browser (issue 6): the landing URL's parameters and the ad-platform
// cookie end up in the lead's tracking; the consent screens carry what TrustedForm and Jornaya need, load their
// scripts only when GET /api/v1/config enables them, and send the certificates with the final button.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { BrowserContext, Page } from 'playwright-core';
import { STEP_NAMES, type StepName } from '@funnel/contracts/steps';
import { API_ANSWERS, VISITOR, completeLanding, leadBefore } from './funnel-driver';
import { startHarness, type Harness } from './harness';
import { leadKeys, newLead, openSealed, type StoredLead } from './lead-in-redis';
import { assertAccessible, collectPageErrors, openScreen } from './page-checks';

const LANDING_QUERY =
  '?utm_source=google&utm_medium=cpc&utm_campaign=spring&pubs=pub-9&campaign_type=ho&clickid=abc123';
const FBP = 'fb.1.1763700000000.1234567890';
const VENDOR_HOSTS = /trustedform\.com|lidstatic\.com|leadid\.com/;

/** A page that records every URL it requests. */
async function trackedPage(context: BrowserContext): Promise<{ page: Page; requested: string[] }> {
  const page = await context.newPage();
  const requested: string[] = [];
  page.on('request', (request) => requested.push(request.url()));
  return { page, requested };
}

/** Creates a lead through the API with every step before `step` answered; answers its Redis key. */
async function apiLeadBefore(harness: Harness, context: BrowserContext, step: StepName): Promise<string> {
  const keys = await leadKeys(harness);
  await leadBefore(context, step);
  return (await newLead(harness, keys)).key;
}

/** The button and certificates of the consent recorded on the lead at `key`. */
async function certificatesOf(harness: Harness, key: string): Promise<Record<string, unknown>> {
  const raw = await harness.redis.hgetall(key);
  const lead = { key, id: key.slice(`${harness.config.keyPrefix}lead:`.length), raw };
  const consent = openSealed(harness, lead, '_consent') as Record<string, unknown>;
  return {
    button: consent.button,
    trustedFormUrl: consent.trustedFormUrl,
    jornayaLeadId: consent.jornayaLeadId,
  };
}

function parsedMeta(lead: StoredLead, field: '_tracking'): Record<string, unknown> {
  return JSON.parse(lead.raw[field] ?? '{}') as Record<string, unknown>;
}

/** What the scripts would write into the hidden inputs, written by the test instead. */
async function fillCertificates(page: Page, trustedFormUrl: string, jornayaLeadId: string): Promise<void> {
  await page.evaluate(
    ([certificate, token]) => {
      (document.querySelector('input[name="xxTrustedFormCertUrl"]') as HTMLInputElement).value = certificate;
      (document.querySelector('input[name="universal_leadid"]') as HTMLInputElement).value = token;
    },
    [trustedFormUrl, jornayaLeadId] as const,
  );
}

/** The consent screens carry the hidden inputs and the consent wording in Jornaya's disclosure label. */
async function assertConsentMarkup(page: Page, wording: RegExp): Promise<void> {
  assert.equal(await page.locator('input[type="hidden"][name="xxTrustedFormCertUrl"]').count(), 1);
  assert.equal(await page.locator('input[type="hidden"]#leadid_token[name="universal_leadid"]').count(), 1);
  assert.match((await page.locator('label#leadid_tcpa_disclosure').textContent()) ?? '', wording);
}

describe('consent scripts disabled (the default)', () => {
  let harness: Harness;

  before(async () => {
    harness = await startHarness({ label: 'attribution' });
  });

  after(async () => {
    await harness?.close();
  });

  test('the landing URL parameters and the _fbp cookie are stored as the lead’s tracking', async () => {
    const context = await harness.newContext();
    await context.addCookies([{ name: '_fbp', value: FBP, url: harness.baseUrl }]);
    const { page, requested } = await trackedPage(context);
    const errors = collectPageErrors(page);
    const before = await leadKeys(harness);

    const configLoaded = page.waitForResponse((response) => response.url().endsWith('/api/v1/config'));
    await openScreen(page, `/start${LANDING_QUERY}`);
    await page.getByRole('heading', { level: 1, name: 'Personal loans from $100 to $5,000' }).waitFor();
    assert.equal((await configLoaded).status(), 200);
    await assertConsentMarkup(page, /^By clicking Get Started you agree/);
    await assertAccessible(page, 'start with attribution');

    const landingRequest = page.waitForRequest(
      (request) => request.method() === 'POST' && request.url().endsWith('/api/v1/lead'),
    );
    await completeLanding(page);
    assert.deepEqual((await landingRequest).postDataJSON().landingParams, {
      utm_source: 'google',
      utm_medium: 'cpc',
      utm_campaign: 'spring',
      pubs: 'pub-9',
      campaign_type: 'ho',
      clickid: 'abc123',
    });

    const lead = await newLead(harness, before);
    assert.deepEqual(parsedMeta(lead, '_tracking'), {
      utmSource: 'google',
      utmMedium: 'cpc',
      utmCampaign: 'spring',
      pubs: 'pub-9',
      campaignType: 'ho',
      clickId: 'abc123',
      fbp: FBP,
      webSiteUrl: `${harness.baseUrl}/start`,
    });
    const storage = await page.evaluate(() => ({
      local: localStorage.length,
      session: sessionStorage.length,
    }));
    assert.deepEqual(storage, { local: 0, session: 0 }, 'nothing kept in browser storage');
    assert.deepEqual(
      requested.filter((url) => VENDOR_HOSTS.test(url)),
      [],
      'no consent script is loaded when disabled',
    );
    assert.deepEqual(errors, []);
    await context.close();
  });

  test('a deep link sends the landing parameters too, never its email', async () => {
    const context = await harness.newContext();
    const { page } = await trackedPage(context);
    const before = await leadKeys(harness);
    await openScreen(
      page,
      '/start?email=jane.doe%40example.com&loan_reason=MEDICAL&utm_source=news&pubs=pub-3',
    );
    await page.waitForURL('**/lgname');
    const lead = await newLead(harness, before);
    const tracking = parsedMeta(lead, '_tracking');
    assert.deepEqual(
      { utmSource: tracking.utmSource, pubs: tracking.pubs },
      { utmSource: 'news', pubs: 'pub-3' },
    );
    assert.ok(!JSON.stringify(tracking).includes('jane'), 'no email in the tracking');
    await context.close();
  });

  test('Request Funds sends the certificates in the SSN screen’s hidden inputs', async () => {
    const context = await harness.newContext();
    const key = await apiLeadBefore(harness, context, 'ssn');
    const { page, requested } = await trackedPage(context);
    await openScreen(page, '/ssn');
    const ssn = page.getByLabel('Social Security Number', { exact: true });
    await ssn.waitFor();
    await assertConsentMarkup(page, /^By clicking "Request Funds"/);
    await assertAccessible(page, 'ssn with consent markup');

    await fillCertificates(page, 'https://cert.trustedform.com/ssn-screen', 'LEADID-SSN-SCREEN');
    await ssn.fill(VISITOR.ssn);
    await page.getByRole('button', { name: 'Request Funds', exact: true }).click();
    await page.waitForURL('**/mapping-lender');

    assert.deepEqual(await certificatesOf(harness, key), {
      button: 'REQUEST_FUNDS',
      trustedFormUrl: 'https://cert.trustedform.com/ssn-screen',
      jornayaLeadId: 'LEADID-SSN-SCREEN',
    });
    assert.deepEqual(
      requested.filter((url) => VENDOR_HOSTS.test(url)),
      [],
      'no consent script is loaded when disabled',
    );
    await context.close();
  });

  test('Request Cash sends the certificates in the /requestcash screen’s hidden inputs', async () => {
    const context = await harness.newContext();
    const key = await apiLeadBefore(harness, context, 'ssn');
    // Request Cash submits the application, which needs every answer on file.
    const saved = await context.request.put('/api/v1/lead/steps/ssn', { data: API_ANSWERS.ssn });
    assert.equal(saved.status(), 200);
    const { page } = await trackedPage(context);
    await openScreen(page, '/requestcash');
    await page.getByRole('heading', { level: 1, name: 'Your request is ready' }).waitFor();
    await assertConsentMarkup(page, /^By clicking "Request Cash"/);

    await fillCertificates(page, 'https://cert.trustedform.com/request-cash', 'LEADID-REQUEST-CASH');
    await page.getByRole('button', { name: 'Request Cash', exact: true }).click();
    await page.waitForURL('**/mapping-lender');

    assert.deepEqual(await certificatesOf(harness, key), {
      button: 'REQUEST_CASH',
      trustedFormUrl: 'https://cert.trustedform.com/request-cash',
      jornayaLeadId: 'LEADID-REQUEST-CASH',
    });
    await context.close();
  });

  test('the partners page credits the loaded reference data', async () => {
    const context = await harness.newContext();
    const { page } = await trackedPage(context);
    await openScreen(page, '/partners');
    const credits = page.getByRole('list', { name: 'Data sources' });
    await credits.waitFor();
    const lines = await credits.getByRole('listitem').allInnerTexts();
    assert.equal(lines.length, 2, lines.join('\n'));
    assert.ok(
      lines.some((line) => line.includes('O*NET 29.3 Database')),
      'O*NET line',
    );
    assert.ok(
      lines.some((line) => line.includes('Postal code data © GeoNames')),
      'GeoNames line',
    );
    await context.close();
  });
});

describe('consent scripts enabled', () => {
  let harness: Harness;

  before(async () => {
    harness = await startHarness({
      label: 'consent-scripts',
      bffEnv: { TRUSTEDFORM_ENABLED: 'true', JORNAYA_ENABLED: 'true', JORNAYA_CAMPAIGN_ID: 'e2e-campaign' },
    });
  });

  after(async () => {
    await harness?.close();
  });

  test('each consent screen loads both scripts, and each screen’s certificates go with its request', async () => {
    const context = await harness.newContext();
    // Stand-ins for the vendors' scripts: each load certifies the screen with a new value, as theirs do.
    const loads = { trustedForm: 0, jornaya: 0 };
    await context.route(/^https:\/\/api\.trustedform\.com\/trustedform\.js\?/, (route) => {
      loads.trustedForm += 1;
      return route.fulfill({
        contentType: 'text/javascript',
        body: fillInputScript(
          'xxTrustedFormCertUrl',
          `https://cert.trustedform.com/e2e-${loads.trustedForm}`,
        ),
      });
    });
    await context.route(/^https:\/\/create\.lidstatic\.com\/campaign\/e2e-campaign\.js\?/, (route) => {
      loads.jornaya += 1;
      return route.fulfill({
        contentType: 'text/javascript',
        body: fillInputScript('universal_leadid', `E2E-LEADID-${loads.jornaya}`),
      });
    });
    const { page } = await trackedPage(context);
    const errors = collectPageErrors(page);
    const keys = await leadKeys(harness);

    await openScreen(page, `/start${LANDING_QUERY}`);
    const landing = await certificatesFilled(page);
    await completeLanding(page);
    const lead = await newLead(harness, keys);
    assert.deepEqual(
      {
        trustedFormUrl: parsedMeta(lead, '_tracking').trustedFormUrl,
        jornayaLeadId: parsedMeta(lead, '_tracking').jornayaLeadId,
      },
      landing,
    );

    for (const step of STEP_NAMES.slice(0, STEP_NAMES.indexOf('ssn'))) {
      const saved = await context.request.put(`/api/v1/lead/steps/${step}`, { data: API_ANSWERS[step] });
      assert.equal(saved.status(), 200, `${step}: ${await saved.text()}`);
    }
    await openScreen(page, '/ssn');
    const ssnScreen = await certificatesFilled(page);
    assert.notDeepEqual(ssnScreen, landing, 'the SSN screen is certified anew');
    await page.getByLabel('Social Security Number', { exact: true }).fill(VISITOR.ssn);
    await page.getByRole('button', { name: 'Request Funds', exact: true }).click();
    await page.waitForURL('**/mapping-lender');

    assert.deepEqual(await certificatesOf(harness, lead.key), { button: 'REQUEST_FUNDS', ...ssnScreen });
    assert.ok(loads.trustedForm >= 2 && loads.jornaya >= 2, `scripts loaded ${JSON.stringify(loads)}`);
    assert.deepEqual(errors, []);
    await context.close();
  });
});

/** A script that writes `value` into the input named `name`, as the vendors' scripts do. */
function fillInputScript(name: string, value: string): string {
  return `document.querySelector('input[name="${name}"]').value = ${JSON.stringify(value)};`;
}

/** Waits for the scripts to fill both hidden inputs; answers their values. */
async function certificatesFilled(page: Page): Promise<{ trustedFormUrl: string; jornayaLeadId: string }> {
  const read = () =>
    page.evaluate(() => ({
      trustedFormUrl:
        document.querySelector<HTMLInputElement>('input[name="xxTrustedFormCertUrl"]')?.value ?? '',
      jornayaLeadId: document.querySelector<HTMLInputElement>('input[name="universal_leadid"]')?.value ?? '',
    }));
  await page.waitForFunction(() =>
    ['xxTrustedFormCertUrl', 'universal_leadid'].every(
      (name) => document.querySelector<HTMLInputElement>(`input[name="${name}"]`)?.value,
    ),
  );
  return read();
}
