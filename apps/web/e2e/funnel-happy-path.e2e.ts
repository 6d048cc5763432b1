import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { SEALED_SERVER_FIELDS } from '@funnel/contracts/fields';
import { STEP_NAMES, getStep, progressFor } from '@funnel/contracts/steps';
import { VISITOR, answer, completeLanding, firstSelectablePayDate, nextTo } from './funnel-driver';
import { startHarness, type Harness } from './harness';
import { leadKeys, newLead, openAll, openSealed } from './lead-in-redis';
import { assertAccessible, collectPageErrors, openScreen, screenshotBothWidths } from './page-checks';

let harness: Harness;

before(async () => {
  harness = await startHarness({ label: 'happy-path' });
});

after(async () => {
  await harness?.close();
});

test('a visitor goes from the landing form through every step to matching; every answer is stored', async () => {
  const context = await harness.newContext();
  const page = await context.newPage();
  const errors = collectPageErrors(page);
  const visited: string[] = [];
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame()) visited.push(frame.url());
  });
  const before = await leadKeys(harness);

  await openScreen(page, '/');
  await page.waitForURL('**/start');
  await page.getByRole('heading', { level: 1, name: 'Personal loans from $100 to $5,000' }).waitFor();
  assert.equal(await page.getByLabel('How much do you need?').inputValue(), '500', 'default amount is $500');
  assert.equal(await page.getByLabel('What is the loan for?').inputValue(), 'DEBT_CONSOLIDATION');
  await assertAccessible(page, 'start');
  await screenshotBothWidths(page, '00-start');

  // What TrustedForm's and Jornaya's scripts would write into the hidden inputs.
  await page.evaluate(() => {
    (document.getElementById('xxTrustedFormCertUrl') as HTMLInputElement).value =
      'https://cert.trustedform.com/0123456789abcdef';
    (document.getElementById('leadid_token') as HTMLInputElement).value = 'JORNAYA-LEAD-ID-1';
  });
  await completeLanding(page);

  for (const [index, step] of STEP_NAMES.entries()) {
    const heading = page.getByRole('heading', { level: 1, name: getStep(step).title });
    await heading.waitFor();
    assert.equal(
      await page.evaluate(() => document.activeElement?.tagName),
      'H1',
      `${step}: focus on the h1`,
    );
    assert.equal(
      await page.getByRole('progressbar').getAttribute('aria-valuenow'),
      String(Math.round(progressFor(step))),
      `${step}: progress`,
    );
    await answer(page, step);
    await assertAccessible(page, step);
    await screenshotBothWidths(page, `${String(index + 1).padStart(2, '0')}-${step}`);

    if (step === 'email') {
      await page.getByRole('button', { name: 'Next', exact: true }).click();
      const popup = page.getByRole('dialog', { name: 'Is your email address correct?' });
      await popup.getByText(VISITOR.email).waitFor();
      await popup.getByRole('button', { name: 'Confirm' }).click();
      await page.waitForURL('**/cellphone');
    } else if (step === 'ssn') {
      await page.getByRole('button', { name: 'Request Funds', exact: true }).click();
      await page.waitForURL('**/mapping-lender');
    } else {
      await nextTo(page, `/${STEP_NAMES[index + 1]}`);
    }
  }

  await page.getByRole('heading', { level: 1, name: 'Please do not close this window' }).waitFor();
  await assertAccessible(page, 'mapping-lender');
  await screenshotBothWidths(page, '26-mapping-lender');

  const lead = await newLead(harness, before);
  const stored = openAll(harness, lead);
  assert.deepEqual(
    {
      loan_amount: stored.loan_amount,
      loan_reason: stored.loan_reason,
      zip: stored.zip,
      city: stored.city,
      state: stored.state,
      first_name: stored.first_name,
      last_name: stored.last_name,
      email: stored.email,
      home_phone: stored.home_phone,
      contact_time: stored.contact_time,
      address: stored.address,
      time_at_residence: stored.time_at_residence,
      own_home: stored.own_home,
      income_type: stored.income_type,
      work_time_at_employer: stored.work_time_at_employer,
      debt_amount: stored.debt_amount,
      income_payment_frequency: stored.income_payment_frequency,
      income_net_monthly: stored.income_net_monthly,
      income_next_date_1: stored.income_next_date_1,
      work_company_name: stored.work_company_name,
      job_title: stored.job_title,
      work_phone: stored.work_phone,
      bank_direct_deposit: stored.bank_direct_deposit,
      bank_name: stored.bank_name,
      bank_account_type: stored.bank_account_type,
      bank_account_length_month: stored.bank_account_length_month,
      drivers_license_state: stored.drivers_license_state,
      own_car: stored.own_car,
      credit_score: stored.credit_score,
    },
    {
      loan_amount: 1000,
      loan_reason: 'AUTO_REPAIR',
      zip: '10001',
      city: 'New York',
      state: 'NY',
      first_name: 'Jane',
      last_name: 'Doe',
      email: VISITOR.email,
      home_phone: VISITOR.phone,
      contact_time: 'MORNING',
      address: VISITOR.streetAddress,
      time_at_residence: 36,
      own_home: 'NO',
      income_type: 'EMPLOYMENT',
      work_time_at_employer: 24,
      debt_amount: '5000_9999',
      income_payment_frequency: 'BIWEEKLY',
      income_net_monthly: 3500,
      income_next_date_1: firstSelectablePayDate(),
      work_company_name: VISITOR.employerName,
      job_title: VISITOR.jobTitle,
      work_phone: VISITOR.workPhone,
      bank_direct_deposit: 'YES',
      bank_name: stored.bank_name,
      bank_account_type: 'CHECKING',
      bank_account_length_month: 30,
      drivers_license_state: 'CA',
      own_car: 'YES',
      credit_score: 'GOOD',
    },
  );
  assert.match(String(stored.bank_name), /bank of america/i, 'bank name from the routing directory');
  assert.match(
    String(stored.income_next_date_2),
    /^\d{4}-\d{2}-\d{2}$/,
    'second pay date derived by the BFF',
  );

  const sensitive = {
    dob: '1990-05-15',
    bank_aba: VISITOR.routingNumber,
    bank_account_number: VISITOR.bankAccount,
  };
  for (const field of SEALED_SERVER_FIELDS) {
    if (field === 'user_ip' || field === 'user_agent') continue; // recorded at submission
    assert.ok(lead.raw[field]?.startsWith('enc:v1:'), `${field} is sealed at rest`);
  }
  assert.deepEqual(
    {
      dob: openSealed(harness, lead, 'dob'),
      bank_aba: openSealed(harness, lead, 'bank_aba'),
      bank_account_number: openSealed(harness, lead, 'bank_account_number'),
      drivers_license_number: openSealed(harness, lead, 'drivers_license_number'),
      ssn: openSealed(harness, lead, 'ssn'),
    },
    { ...sensitive, drivers_license_number: VISITOR.licenseID, ssn: VISITOR.ssn },
  );
  assert.deepEqual(JSON.parse(lead.raw._tracking ?? '{}'), {
    trustedFormUrl: 'https://cert.trustedform.com/0123456789abcdef',
    jornayaLeadId: 'JORNAYA-LEAD-ID-1',
    // The page the visitor applied from, from the landing request's Referer.
    webSiteUrl: `${harness.baseUrl}/start`,
  });

  const storage = await page.evaluate(() => ({ local: localStorage.length, session: sessionStorage.length }));
  assert.deepEqual(storage, { local: 0, session: 0 }, 'nothing kept in browser storage');
  for (const url of visited) {
    assert.ok(!/jane|doe|example\.com|2125550123|123456789/i.test(url), `no personal data in the URL ${url}`);
  }
  assert.deepEqual(errors, []);
  await context.close();
});
