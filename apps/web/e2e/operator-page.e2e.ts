// The operator page (issue 10): an operator signs in with their own account (ADR 0021), and the funnel,
// sales and buyers reports (issue 33) over a fixture of known lead events, written to a PostgreSQL schema of this suite's own through
// the drain's recording code, show the counts worked out by hand below, filtered by dates, affiliate and source,
// as a chart, as tables and as CSV downloads.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { after, before, test } from 'node:test';
import type { Kysely } from 'kysely';
import type { BrowserContext, Page } from 'playwright-core';
import type { LeadEvent } from '@funnel/contracts/lead-events';
import { FUNNEL_POSITION_LABELS, FUNNEL_POSITIONS } from '@funnel/contracts/reports';
import { STEP_NAMES } from '@funnel/contracts/steps';
import { migrate, openDatabase, type Database } from '@funnel/db/database';
import { fileReturn } from '@funnel/db/buyer-returns';
import { recordEvents } from '@funnel/db/record-events';
import { dropSchema, testDatabaseUrl, testSchema } from '@funnel/testing/postgres';
import { startHarness, type Harness } from './harness';
import { createOperator, OPERATOR_PASSWORD, signInThroughPage } from './operator-accounts';
import {
  assertAccessible,
  collectPageErrors,
  openScreen,
  screenshotBothWidths,
  screenshotPartBothWidths,
} from './page-checks';

const TOKEN = 'e2e-operator-token-'.padEnd(48, 'q');
const ALL = STEP_NAMES.length;
const POLL_MS = 10_000;

interface FixtureLead {
  id: string;
  /** Created at noon New York time (the business time zone) on this day. */
  day: string;
  affiliate?: string;
  source: 'funnel' | 'partner';
  /** How many wizard steps it saved, in order. */
  steps: number;
  outcome?: { is: 'sold' | 'rejected' | 'no_lender'; afterSeconds: number; reason?: string };
  /** The waterfall's attempts, in order: the buyer, what came of it, and the price when sold. */
  attempts?: Array<[buyer: string, result: 'sold' | 'rejected' | 'timeout' | 'capped', price?: number]>;
  /** Screening's flag, before the first attempt, and its score. */
  flaggedScore?: number;
}

/**
 * The fixture. Partner leads arrive complete through the API: created and submitted, no wizard steps.
 * - 2026-10-04, aff-north: E1 complete, sold (outside the first range).
 * - 2026-10-05, aff-north: A1 stops after 1 step, A2 after 3; A3 sold after 30 s; A4 rejected after 90 s.
 * - 2026-10-05, aff-south (partner): B1 sold after 12 s.
 * - 2026-10-06, no affiliate: C1 complete, no lender after 310 s; C2 stops at the landing form.
 * - 2026-10-07, aff-north: D1 sold after 50 s.
 * The waterfall's attempts at the two buyers:
 * - E1: prime sold at $95. A3: prime rejected, network sold at $40.50. A4: both rejected.
 * - B1: prime sold at $120. C1: prime timed out, network's cap was full. D1: network sold at $35.
 * Network returned A3 (approved by its rule): its $40.50 comes off the net revenue. Screening flagged A4 (65).
 */
const FIXTURE: FixtureLead[] = [
  {
    id: 'E1',
    day: '2026-10-04',
    affiliate: 'aff-north',
    source: 'funnel',
    steps: ALL,
    outcome: sold(20),
    attempts: [['prime', 'sold', 95]],
  },
  { id: 'A1', day: '2026-10-05', affiliate: 'aff-north', source: 'funnel', steps: 1 },
  { id: 'A2', day: '2026-10-05', affiliate: 'aff-north', source: 'funnel', steps: 3 },
  {
    id: 'A3',
    day: '2026-10-05',
    affiliate: 'aff-north',
    source: 'funnel',
    steps: ALL,
    outcome: sold(30),
    attempts: [
      ['prime', 'rejected'],
      ['network', 'sold', 40.5],
    ],
  },
  {
    id: 'A4',
    day: '2026-10-05',
    affiliate: 'aff-north',
    source: 'funnel',
    steps: ALL,
    outcome: { is: 'rejected', afterSeconds: 90, reason: 'all_buyers_declined' },
    attempts: [
      ['prime', 'rejected'],
      ['network', 'rejected'],
    ],
    flaggedScore: 65,
  },
  {
    id: 'B1',
    day: '2026-10-05',
    affiliate: 'aff-south',
    source: 'partner',
    steps: 0,
    outcome: sold(12),
    attempts: [['prime', 'sold', 120]],
  },
  {
    id: 'C1',
    day: '2026-10-06',
    source: 'funnel',
    steps: ALL,
    outcome: { is: 'no_lender', afterSeconds: 310, reason: 'no_buyer_decided' },
    attempts: [
      ['prime', 'timeout'],
      ['network', 'capped'],
    ],
  },
  { id: 'C2', day: '2026-10-06', source: 'funnel', steps: 0 },
  {
    id: 'D1',
    day: '2026-10-07',
    affiliate: 'aff-north',
    source: 'funnel',
    steps: ALL,
    outcome: sold(50),
    attempts: [['network', 'sold', 35]],
  },
];

function sold(afterSeconds: number): FixtureLead['outcome'] {
  return { is: 'sold', afterSeconds };
}

/** The events the BFF and the worker emit for such a lead. */
function eventsOf(lead: FixtureLead): LeadEvent[] {
  const leadId = `lead-operator-e2e-${lead.id}`;
  const start = Date.parse(`${lead.day}T16:00:00Z`);
  const at = (seconds: number) => new Date(start + seconds * 1000).toISOString();
  const events: LeadEvent[] = [
    {
      eventId: `${leadId}.created`,
      leadId,
      at: at(0),
      type: 'created',
      source: lead.source,
      ...(lead.affiliate ? { affiliate: lead.affiliate } : {}),
      utmSource: 'newsletter',
      amount: 800,
    },
    ...STEP_NAMES.slice(0, lead.steps).map((step, i): LeadEvent => ({
      eventId: `${leadId}.${step}`,
      leadId,
      at: at(60 * (i + 1)),
      type: 'step_completed',
      step,
    })),
  ];
  if (lead.outcome) {
    const submittedAt = 60 * (lead.steps + 1);
    events.push(
      { eventId: `${leadId}.submitted`, leadId, at: at(submittedAt), type: 'submitted', source: lead.source },
      {
        eventId: `${leadId}.outcome`,
        leadId,
        at: at(submittedAt + lead.outcome.afterSeconds),
        type: 'outcome',
        outcome: lead.outcome.is,
        ...(lead.outcome.reason ? { reason: lead.outcome.reason } : {}),
        secondsToDecision: lead.outcome.afterSeconds,
      },
      ...(lead.attempts ?? []).map(([buyer, result, price], step): LeadEvent => ({
        eventId: `attempt:${leadId}-${step}`,
        leadId,
        at: at(submittedAt + 1 + step),
        type: 'buyer_attempt',
        attemptKey: `${leadId}-${step}`,
        step,
        buyer,
        tier: 1,
        result,
        latencyMs: result === 'timeout' ? 5000 : 150,
        fieldErrors: [],
        ...(result === 'timeout' ? { errorKind: 'timeout' } : {}),
        ...(price === undefined ? {} : { price }),
      })),
    );
  }
  if (lead.flaggedScore !== undefined) {
    events.push({
      eventId: `screened-${leadId}`,
      leadId,
      at: at(60 * (lead.steps + 1)),
      type: 'screened',
      verdict: 'flag',
      score: lead.flaggedScore,
      reasons: ['email_no_mail'],
      unchecked: [],
      ms: 35,
    });
  }
  return events;
}

const schema = testSchema('operator_e2e');
let db: Kysely<Database>;
let harness: Harness;

before(async () => {
  db = openDatabase({ url: testDatabaseUrl(), schema });
  await migrate(db, schema);
  const events = FIXTURE.flatMap(eventsOf);
  assert.equal(await recordEvents(db, events), events.length);
  const returned = await fileReturn(db, {
    buyer: 'network',
    keyHash: 'e2e-return',
    fingerprint: 'e2e-return',
    request: { reference: 'lead-operator-e2e-A3', reason: 'invalid_contact' },
    policy: { windowDays: 7, cap: { count: 10, period: 'month' }, autoApprove: true },
    timeZone: 'America/New_York',
    now: new Date('2026-10-08T12:00:00.000Z'),
  });
  assert.ok('created' in returned && returned.created.status === 'approved', 'A3 returned');
  const url = `${testDatabaseUrl()}?options=${encodeURIComponent(`-c search_path=${schema}`)}`;
  harness = await startHarness({
    label: 'operator',
    bffEnv: { DATABASE_URL: url, ADMIN_API_TOKEN: TOKEN },
  });
  await createOperator(harness.baseUrl, TOKEN, 'reports@example.com', 'viewer');
});

after(async () => {
  await harness?.close();
  await db?.destroy();
  await dropSchema(schema);
});

/** A table's body rows, each as its cells' text (the row header first). */
async function tableRows(page: Page, caption: string): Promise<string[][]> {
  return page
    .getByRole('table', { name: caption })
    .locator('tbody tr')
    .evaluateAll((rows) =>
      rows.map((row) => [...row.querySelectorAll('th, td')].map((cell) => cell.textContent!.trim())),
    );
}

async function outcomes(page: Page): Promise<Record<string, string>> {
  return page
    .locator('dl[aria-label="Outcomes"] > div')
    .evaluateAll((items) =>
      Object.fromEntries(
        items.map((item) => [item.querySelector('dt')!.textContent!, item.querySelector('dd')!.textContent!]),
      ),
    );
}

/** Waits until `read()` answers `expected` (the report is refetched after a filter change). */
async function eventually<T>(read: () => Promise<T>, expected: T, what: string): Promise<void> {
  const deadline = Date.now() + POLL_MS;
  let actual = await read();
  while (!isDeepEqual(actual, expected) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    actual = await read();
  }
  assert.deepEqual(actual, expected, what);
}

function isDeepEqual(a: unknown, b: unknown): boolean {
  try {
    assert.deepEqual(a, b);
    return true;
  } catch {
    return false;
  }
}

/** Sets the filters through the form, with the pointer, and applies them. */
async function filter(
  page: Page,
  filters: { from: string; to: string; affiliate?: string; source?: 'funnel' | 'partner' | '' },
): Promise<void> {
  await page.getByLabel('From', { exact: true }).fill(filters.from);
  await page.getByLabel('To', { exact: true }).fill(filters.to);
  await page.getByLabel('Affiliate', { exact: true }).fill(filters.affiliate ?? '');
  await page.getByLabel('Source', { exact: true }).selectOption(filters.source ?? '');
  await page.getByRole('button', { name: 'Apply filters' }).click();
}

async function download(page: Page, link: string): Promise<{ name: string; text: string }> {
  const [file] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('link', { name: link }).click(),
  ]);
  return { name: file.suggestedFilename(), text: await readFile((await file.path())!, 'utf8') };
}

async function operatorCookie(context: BrowserContext) {
  return (await context.cookies(`${harness.baseUrl}/api/v1/admin/reports/funnel`)).find(
    (cookie) => cookie.name === 'funnel_operator',
  );
}

test('a borrower page never downloads the operator page or the chart library', async () => {
  const context = await harness.newContext(375);
  const page = await context.newPage();
  const scripts: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'script') scripts.push(request.url());
  });
  await openScreen(page, '/start');
  await page.getByRole('heading', { level: 1 }).waitFor();
  await page.waitForLoadState('networkidle');
  assert.ok(scripts.length > 0, 'the borrower page loaded its scripts');
  assert.deepEqual(
    scripts.filter((url) => /\/assets\/operator-/.test(url)),
    [],
  );
  await context.close();
});

test('an operator signs in, filters, and reads numbers that match the fixture', async () => {
  const context = await harness.newContext(1280);
  const page = await context.newPage();
  const errors = collectPageErrors(page);
  const scripts: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'script') scripts.push(request.url());
  });
  await openScreen(page, '/operator?from=2026-10-05&to=2026-10-06');

  // Sign-in: a wrong token, by pointer, is refused with a message tied to the field, and sets no cookie.
  await page.getByRole('heading', { name: 'Operator sign-in' }).waitFor();
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: 900 });
    await assertAccessible(page, `operator sign-in at ${width} px`);
  }
  await page.setViewportSize({ width: 1280, height: 900 });
  await screenshotBothWidths(page, 'operator-sign-in');
  const email = page.getByLabel('Email');
  const password = page.getByLabel('Password');
  assert.equal(await password.getAttribute('type'), 'password');
  await email.click();
  await email.fill('reports@example.com');
  await password.fill('not the password at all');
  await page.getByRole('button', { name: 'Sign in' }).click();
  const error = page.locator('#operator-password-error');
  await error.waitFor();
  // One answer for any wrong email, password or code (ADR 0023): it never says which was wrong.
  assert.equal(
    (await error.innerText()).trim(),
    'That email, password or code is not right. If your account has a second factor, enter its code too.',
  );
  assert.equal(await error.getAttribute('role'), 'alert');
  assert.equal(await password.getAttribute('aria-invalid'), 'true');
  assert.equal(await operatorCookie(context), undefined);
  await assertAccessible(page, 'operator sign-in with an error');

  // The right password, by keyboard only: Tab from the heading reaches the email, then the password; Enter submits.
  await page.getByRole('heading', { name: 'Operator sign-in' }).focus();
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'operator-email');
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'operator-password');
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.type(OPERATOR_PASSWORD);
  await page.keyboard.press('Enter');
  await page.getByRole('heading', { name: 'Funnel and sales reports' }).waitFor();
  const cookie = await operatorCookie(context);
  assert.ok(cookie, 'the operator cookie is set');
  assert.equal(cookie.httpOnly, true);
  assert.equal(cookie.sameSite, 'Strict');
  assert.equal(cookie.path, '/api/v1/admin');
  assert.equal(await page.evaluate(() => document.cookie.includes('funnel_operator')), false);
  const storage = await page.evaluate(() => JSON.stringify({ ...localStorage, ...sessionStorage }));
  assert.ok(!storage.includes(OPERATOR_PASSWORD), 'the password is in no browser storage');

  // 2026-10-05 to 2026-10-06, every affiliate and source: A1–A4, B1, C1, C2.
  await eventually(
    () => outcomes(page),
    { Created: '7', Submitted: '4', Sold: '2', Rejected: '1', 'No lender': '1' },
    'outcomes, 5–6 Oct',
  );
  // Which lead nobody decided (no lender) and which a buyer declined (rejected), in words.
  assert.deepEqual(await tableRows(page, 'Why leads were not sold'), [
    ['Rejected', 'Every buyer that answered declined', '1'],
    ['No lender', 'No buyer decided in time', '1'],
  ]);
  const funnel = await tableRows(page, 'Funnel by step');
  // Each screen by its name, in wizard order; the step ids are for the CSV only (issue 25).
  assert.deepEqual(
    funnel.map((row) => row[0]),
    FUNNEL_POSITIONS.map((step) => FUNNEL_POSITION_LABELS[step]),
    'wizard order',
  );
  assert.deepEqual(funnel.slice(0, 5), [
    ['Landing form', '7', '7', '0', '0%'],
    ['Name', '7', '5', '2', '28.6%'],
    ['Email', '5', '4', '1', '20%'],
    ['Phone', '4', '4', '0', '0%'],
    ['Best time to call', '4', '3', '1', '25%'],
  ]);
  assert.deepEqual(funnel.at(-1), ['SSN', '3', '3', '0', '0%']);
  const shown = await page.locator('main').innerText();
  for (const id of ['lgname', 'besttimecontact', 'empinfor', 'aba']) {
    assert.doesNotMatch(shown, new RegExp(`\\b${id}\\b`), `the page never shows the step id ${id}`);
  }
  assert.deepEqual(await tableRows(page, 'Sales by affiliate and day'), [
    ['2026-10-05', 'aff-north', '2', '1', '50%', '60 s', '84 s'],
    ['2026-10-05', 'aff-south', '1', '1', '100%', '12 s', '12 s'],
    ['2026-10-06', '(direct)', '1', '0', '0%', '310 s', '310 s'],
  ]);
  // By net revenue: prime tried A3, A4, B1 and C1 and bought B1; network bought A3, returned it, and C1 met its
  // full cap.
  await eventually(
    () => tableRows(page, 'Sales by buyer'),
    [
      ['prime', '4', '1', '25%', '$120.00', '1', '0', '$120.00', '0', '$0.00', '$120.00', '0', '0', '$0.00'],
      ['network', '2', '1', '50%', '$40.50', '0', '1', '$40.50', '1', '$40.50', '$0.00', '0', '0', '$0.00'],
    ],
    'buyers, 5–6 Oct',
  );
  // The same money by the affiliate that sent each sold lead: A3 (aff-north, returned) and B1 (aff-south).
  await eventually(
    () => tableRows(page, 'Revenue by affiliate'),
    [
      ['aff-south', '1', '$120.00', '0', '$0.00', '$120.00', '0', '0', '$0.00', '$0.00'],
      ['aff-north', '1', '$40.50', '1', '$40.50', '$0.00', '0', '0', '$0.00', '$0.00'],
    ],
    'affiliates, 5–6 Oct',
  );
  // Screening flagged A4 (aff-north), which no buyer bought: no band has a sale yet.
  await eventually(
    () => tableRows(page, 'Screening by affiliate'),
    [['aff-north', '1', '0', '1', '0', '100%', "Email's domain takes no mail: 1"]],
    'quality, 5–6 Oct',
  );
  assert.deepEqual(
    (await tableRows(page, 'Returns by screening band')).map((row) => row.slice(1)),
    [
      ['0', '0', '0%'],
      ['0', '0', '0%'],
      ['0', '0', '0%'],
      ['0', '0', '0%'],
    ],
  );

  // The chart library came with the page, and drew.
  const chart = page.locator('[data-chart="funnel"] canvas');
  await chart.waitFor();
  const inked = await chart.evaluate((canvas: HTMLCanvasElement) => {
    const pixels = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height).data;
    let count = 0;
    for (let i = 3; i < pixels.length; i += 4) if (pixels[i]! > 0) count += 1;
    return count;
  });
  assert.ok(inked > 1000, `the chart drew something (${inked} pixels)`);
  assert.ok(
    scripts.some((url) => /\/assets\/operator-funnel-chart-[\w-]+\.js$/.test(url)),
    'the chart came in its own operator chunk',
  );

  // The CSV downloads carry the same rows.
  const funnelCsv = await download(page, 'Download funnel CSV');
  assert.equal(funnelCsv.name, 'funnel-2026-10-05-2026-10-06.csv');
  const funnelLines = funnelCsv.text.trimEnd().split('\r\n');
  assert.deepEqual(funnelLines.slice(0, 3), [
    'step,reached,completed,drop_off,drop_off_rate',
    'landing,7,7,0,0.0000',
    'lgname,7,5,2,0.2857',
  ]);
  assert.equal(funnelLines.length, 1 + 1 + STEP_NAMES.length);
  const salesCsv = await download(page, 'Download sales CSV');
  assert.equal(salesCsv.name, 'sales-2026-10-05-2026-10-06.csv');
  assert.deepEqual(salesCsv.text.trimEnd().split('\r\n'), [
    'day,affiliate,submitted,sold,sold_rate,median_seconds_to_decision,p90_seconds_to_decision',
    '2026-10-05,aff-north,2,1,0.5000,60,84',
    '2026-10-05,aff-south,1,1,1.0000,12,12',
    '2026-10-06,,1,0,0.0000,310,310',
  ]);
  const buyersCsv = await download(page, 'Download buyers CSV');
  assert.equal(buyersCsv.name, 'buyers-2026-10-05-2026-10-06.csv');
  assert.deepEqual(buyersCsv.text.trimEnd().split('\r\n'), [
    'buyer,attempts,sold,accept_rate,average_price,timeouts,capped,revenue,returns,returned_revenue,' +
      'net_revenue,pending_returns,conversions,funded_amount',
    'prime,4,1,0.2500,120.00,1,0,120.00,0,0.00,120.00,0,0,0.00',
    'network,2,1,0.5000,40.50,0,1,40.50,1,40.50,0.00,0,0,0.00',
  ]);

  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: 900 });
    await assertAccessible(page, `operator reports at ${width} px`);
  }
  // At 375 px nothing scrolls sideways, the page or a table: each table's rows stack (issue 25).
  const overflow = await page.evaluate(() => ({
    page: document.documentElement.scrollWidth - window.innerWidth,
    tables: [...document.querySelectorAll('[role="region"]')].map((box) => box.scrollWidth - box.clientWidth),
  }));
  assert.ok(overflow.page <= 0, `the page is ${overflow.page} px wider than a 375 px screen`);
  assert.deepEqual(overflow.tables, [0, 0, 0, 0, 0, 0, 0], 'no table scrolls sideways');
  // The chart turned horizontal: one row per position, whose names never overlap.
  const names = await page
    .locator('[data-chart="funnel"] > div')
    .evaluateAll((rows) => rows.map((row) => row.firstElementChild!.getBoundingClientRect()));
  assert.equal(names.length, FUNNEL_POSITIONS.length);
  for (let i = 1; i < names.length; i += 1) {
    assert.ok(names[i]!.top >= names[i - 1]!.bottom - 0.5, `chart label ${i} does not overlap the one above`);
  }
  assert.equal(await page.locator('[data-chart="funnel"] canvas').count(), 0, 'no crowded canvas on a phone');
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.locator('[data-chart="funnel"] canvas').waitFor();
  await screenshotBothWidths(page, 'operator-reports');

  // One affiliate over 4–7 Oct: E1, A1–A4, D1.
  await filter(page, { from: '2026-10-04', to: '2026-10-07', affiliate: 'aff-north' });
  await page.waitForURL(/affiliate=aff-north/);
  await eventually(
    () => outcomes(page),
    { Created: '6', Submitted: '4', Sold: '3', Rejected: '1', 'No lender': '0' },
    'outcomes, aff-north',
  );
  assert.deepEqual((await tableRows(page, 'Funnel by step')).slice(1, 3), [
    ['Name', '6', '6', '0', '0%'],
    ['Email', '6', '5', '1', '16.7%'],
  ]);
  assert.deepEqual(await tableRows(page, 'Sales by affiliate and day'), [
    ['2026-10-04', 'aff-north', '1', '1', '100%', '20 s', '20 s'],
    ['2026-10-05', 'aff-north', '2', '1', '50%', '60 s', '84 s'],
    ['2026-10-07', 'aff-north', '1', '1', '100%', '50 s', '50 s'],
  ]);
  await eventually(
    () => tableRows(page, 'Sales by buyer'),
    [
      ['prime', '3', '1', '33.3%', '$95.00', '0', '0', '$95.00', '0', '$0.00', '$95.00', '0', '0', '$0.00'],
      [
        'network',
        '3',
        '2',
        '66.7%',
        '$37.75',
        '0',
        '0',
        '$75.50',
        '1',
        '$40.50',
        '$35.00',
        '0',
        '0',
        '$0.00',
      ],
    ],
    'buyers, aff-north',
  );

  // Partner leads only, over the month: B1, created and submitted without the wizard.
  await filter(page, { from: '2026-10-01', to: '2026-10-31', source: 'partner' });
  await page.waitForURL(/source=partner/);
  await eventually(
    () => outcomes(page),
    { Created: '1', Submitted: '1', Sold: '1', Rejected: '0', 'No lender': '0' },
    'outcomes, partner',
  );
  assert.deepEqual((await tableRows(page, 'Funnel by step')).slice(0, 2), [
    ['Landing form', '1', '1', '0', '0%'],
    ['Name', '1', '0', '1', '100%'],
  ]);
  assert.deepEqual(await tableRows(page, 'Sales by affiliate and day'), [
    ['2026-10-05', 'aff-south', '1', '1', '100%', '12 s', '12 s'],
  ]);
  await eventually(
    () => tableRows(page, 'Sales by buyer'),
    [['prime', '1', '1', '100%', '$120.00', '0', '0', '$120.00', '0', '$0.00', '$120.00', '0', '0', '$0.00']],
    'buyers, partner',
  );
  const partnerCsv = await download(page, 'Download sales CSV');
  assert.equal(partnerCsv.name, 'sales-2026-10-01-2026-10-31.csv');
  assert.deepEqual(partnerCsv.text.trimEnd().split('\r\n').slice(1), [
    '2026-10-05,aff-south,1,1,1.0000,12,12',
  ]);

  // A range the form refuses before asking the BFF.
  await filter(page, { from: '2026-10-07', to: '2026-10-01' });
  assert.equal(
    (await page.locator('#report-to-error').innerText()).trim(),
    "'To' must not be before 'From'.",
  );
  assert.match(page.url(), /from=2026-10-01&to=2026-10-31/);

  // Signing out ends the session and clears the cookie: the page asks to sign in again and the reports answer 401.
  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.getByRole('heading', { name: 'Operator sign-in' }).waitFor();
  assert.equal(await operatorCookie(context), undefined);
  const signedOut = await page.request.get('/api/v1/admin/reports/funnel?from=2026-10-05&to=2026-10-06');
  assert.equal(signedOut.status(), 401);

  assert.deepEqual(errors, []);
  await context.close();
});

/** The column headers of a table that reach past either side of its scrolling box: what the reader cannot see. */
async function columnsOutOfView(page: Page, caption: string): Promise<string[]> {
  return page.getByRole('region', { name: caption, exact: true }).evaluate((box) => {
    const edges = box.getBoundingClientRect();
    return [...box.querySelectorAll('thead th')]
      .filter((th) => {
        const cell = th.getBoundingClientRect();
        return cell.right > edges.right + 1 || cell.left < edges.left - 1;
      })
      .map((th) => th.textContent!.trim());
  });
}

test('every report table fits a laptop, and one too wide for its screen scrolls by keyboard and says so (issue 40)', async () => {
  const context = await harness.newContext(1280);
  const page = await context.newPage();
  const errors = collectPageErrors(page);
  await openScreen(page, '/operator?from=2026-10-05&to=2026-10-06');
  await signInThroughPage(page, 'reports@example.com');
  const buyers = page.getByRole('region', { name: 'Sales by buyer', exact: true });
  await buyers.locator('tbody tr', { hasText: 'network' }).waitFor();
  for (const caption of ['Sales by buyer', 'Revenue by affiliate', 'Sales by affiliate and day']) {
    assert.deepEqual(
      await columnsOutOfView(page, caption),
      [],
      `${caption}: every column in view at 1280 px`,
    );
  }
  await screenshotPartBothWidths(
    page,
    page.getByRole('region', { name: 'Buyers' }),
    'operator-sales-by-buyer',
  );

  // A small laptop: the buyers' 14 columns cannot all fit. The table scrolls inside its own box, which says so
  // in words (a scrollbar may show only while scrolling), and a keyboard user scrolls it to its last column.
  await page.setViewportSize({ width: 1024, height: 768 });
  assert.notDeepEqual(await columnsOutOfView(page, 'Sales by buyer'), []);
  const hint = await buyers.getAttribute('aria-describedby');
  assert.ok(hint, 'the scrolling table is described by its hint');
  assert.match(await page.locator(`[id="${hint}"]`).innerText(), /Scroll sideways/);
  await buyers.focus();
  for (let i = 0; i < 60 && (await columnsOutOfView(page, 'Sales by buyer')).includes('Funded amount'); i++) {
    await page.keyboard.press('ArrowRight');
  }
  assert.ok(
    !(await columnsOutOfView(page, 'Sales by buyer')).includes('Funded amount'),
    'the arrow keys bring the last column into view',
  );
  await assertAccessible(page, 'operator reports at 1024 px');
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 0, `the page itself is ${overflow} px wider than 1024 px`);
  assert.deepEqual(errors, []);
  await context.close();
});

test('an operator finds a lead by the buyer it was offered to and reads its journey (issue 33)', async () => {
  const context = await harness.newContext(1280);
  const page = await context.newPage();
  const errors = collectPageErrors(page);
  await openScreen(page, '/operator/leads');
  // A viewer may search leads and read a journey (ADR 0021): the reports account is one.
  await signInThroughPage(page, 'reports@example.com');
  await page.getByRole('heading', { name: 'Find a lead' }).waitFor();

  // The leads of 2026-10-05 offered to 'prime': A3 and A4 (funnel) and B1 (partner), all created at 16:00.
  await page.getByLabel('Offered to buyer').fill('prime');
  await page.getByLabel('Created from').fill('2026-10-05');
  await page.getByLabel('Created to').fill('2026-10-05');
  await page.getByRole('button', { name: 'Search' }).click();
  await page.getByRole('heading', { name: '3 found' }).waitFor();
  const found = await page
    .locator('#lead-results-caption')
    .locator('xpath=..')
    .locator('tbody th')
    .allInnerTexts();
  assert.deepEqual(
    found.map((text) => text.trim()),
    ['lead-operator-e2e-A3', 'lead-operator-e2e-A4', 'lead-operator-e2e-B1'],
  );
  assert.doesNotMatch(page.url(), /prime|2026-10-05/, 'the filters stay out of the address');
  const results = page.locator('#lead-results-caption').locator('xpath=..');
  const a4 = results.getByRole('row').filter({ hasText: 'lead-operator-e2e-A4' });
  assert.match(await a4.innerText(), /Flagged \(65\)/);

  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: 900 });
    await assertAccessible(page, `lead search at ${width} px`);
  }
  await screenshotBothWidths(page, 'operator-lead-search');

  // A3: prime declined, the network bought it at $40.50, then returned it as an invalid contact.
  await page.getByRole('link', { name: 'lead-operator-e2e-A3' }).click();
  await page.getByRole('heading', { name: 'Lead lead-operator-e2e-A3' }).waitFor();
  await page.getByRole('heading', { name: 'Timeline' }).waitFor();
  const titles = (await page.locator('ol li h3').allInnerTexts()).map((text) => text.trim());
  assert.equal(titles[0], 'Landed');
  assert.equal(titles.filter((title) => title.startsWith('Answered:')).length, ALL);
  assert.deepEqual(titles.slice(-5), [
    'Submitted to buyers',
    'prime declined',
    'network bought it',
    'Outcome: Sold',
    'Returned by network',
  ]);
  const journey = await page.locator('main').innerText();
  assert.match(journey, /Paid \$40\.50/);
  assert.match(journey, /Revenue reversed \$40\.50/);
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: 900 });
    await assertAccessible(page, `lead journey at ${width} px`);
  }
  await screenshotBothWidths(page, 'operator-lead-journey');

  // Back to the search: the last results are still there, from this tab's memory; screening's flag narrows them.
  await page.getByRole('link', { name: 'Back to the search' }).click();
  await page.getByRole('heading', { name: '3 found' }).waitFor();
  await page.getByLabel('Screening').selectOption('flag');
  await page.getByRole('button', { name: 'Search' }).click();
  await page.getByRole('heading', { name: '1 found' }).waitFor();
  assert.match(await results.locator('tbody').innerText(), /lead-operator-e2e-A4/);
  assert.deepEqual(errors, []);
  await context.close();
});
