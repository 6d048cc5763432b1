import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FUNNEL_NOW, STEP_ANSWERS, cookieOf } from './funnel-answers.js';
import { startTestApp, type TestApp } from './test-app.js';

const LANDING = { amount: 500, loanReason: 'DEBT_CONSOLIDATION', zipCode: '10001' };

// Issue 11: what the borrower reads from the API (docs/product-rules.md §messages).
describe('the borrower-facing answers of the API', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ now: () => FUNNEL_NOW, env: { BUSINESS_TIME_ZONE: 'America/Chicago' } });
  });
  afterAll(async () => {
    await t.close();
  });

  async function postLead(payload: unknown) {
    return t.app.inject({ method: 'POST', url: '/api/v1/lead', payload: payload as object });
  }

  it.each([
    [{ loanReason: 'DEBT_CONSOLIDATION', zipCode: '10001' }, { amount: 'Loan amount is required!' }],
    [{ amount: 500, zipCode: '10001' }, { loanReason: 'Loan reason is required!' }],
    [{ amount: 500, loanReason: 'DEBT_CONSOLIDATION' }, { zipCode: 'Zip code is required!' }],
    [{ ...LANDING, zipCode: '1000' }, { zipCode: 'Zip code must be 5 characters long!' }],
    [{ ...LANDING, zipCode: '00000' }, { zipCode: 'Invalid zip code!' }],
    // Present but wrong: a range or format message, never "… is required!" (issue 23).
    [{ ...LANDING, amount: 99 }, { amount: 'Please select a loan amount from $100 to $5,000' }],
    [{ ...LANDING, amount: 5001 }, { amount: 'Please select a loan amount from $100 to $5,000' }],
    [{ ...LANDING, loanReason: 'VACATION' }, { loanReason: 'Please select a loan reason from the list' }],
    [{ ...LANDING, zipCode: 10001 }, { zipCode: 'Zip code must be 5 digits sent as text, like "01234"!' }],
    [
      { ...LANDING, amount: null, zipCode: ' ' },
      { amount: 'Loan amount is required!', zipCode: 'Zip code is required!' },
    ],
    [
      {},
      {
        amount: 'Loan amount is required!',
        loanReason: 'Loan reason is required!',
        zipCode: 'Zip code is required!',
      },
    ],
  ])('answers the landing form %j with its own messages, never "Invalid input"', async (body, fields) => {
    const response = await postLead(body);
    expect(response.statusCode).toBe(400);
    const { error } = response.json();
    expect(error.code).toBe('VALIDATION_FAILED');
    expect(error.fields).toEqual(fields);
    expect(JSON.stringify(error)).not.toContain('Invalid input');
  });

  it('answers a deep link without a loan reason with the loan-reason message', async () => {
    const response = await postLead({ email: 'ada@example.com' });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.fields).toEqual({ loanReason: 'Loan reason is required!' });
    expect((await postLead({ email: 'ada@example.com', loanReason: 'AUTO_REPAIR' })).statusCode).toBe(201);
  });

  it('ranks job titles by frequency and drops the plural of one shown', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/v1/suggest/job_title?q=cash' });
    expect(response.statusCode).toBe(200);
    const titles: string[] = response.json().suggestions;
    expect(titles[0]).toBe('Cashier');
    expect(titles.indexOf('Cash Register Operator')).toBeGreaterThan(0);
    expect(titles).not.toContain('Cashiers');
  });

  it('names a bank from the FedACH directory in title case', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/v1/lookup/routing/325272351' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ bankName: 'Alps Federal Credit Union' });
  });

  it('tells the browser the business time zone', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/v1/config' });
    expect(response.json().businessTimeZone).toBe('America/Chicago');
  });

  it('starts over: DELETE /lead erases the unfinished draft and clears the session cookie', async () => {
    const cookie = cookieOf(await postLead(LANDING));
    const [step, answers] = STEP_ANSWERS[0]!;
    await t.app.inject({
      method: 'PUT',
      url: `/api/v1/lead/steps/${step}`,
      headers: { cookie },
      payload: answers,
    });
    const before = await t.app.inject({ method: 'GET', url: '/api/v1/lead', headers: { cookie } });
    expect(before.json().nextStep).toBe('email');

    const abandoned = await t.app.inject({ method: 'DELETE', url: '/api/v1/lead', headers: { cookie } });
    expect(abandoned.statusCode).toBe(204);
    const cleared = abandoned.cookies.find((c) => c.name === cookie.split('=')[0]);
    expect(cleared?.value).toBe('');

    // The old cookie no longer opens anything: the draft is gone.
    const after = await t.app.inject({ method: 'GET', url: '/api/v1/lead', headers: { cookie } });
    expect(after.statusCode).toBe(404);
    expect(after.json().error.code).toBe('SESSION_EXPIRED');
    // Without a session there is nothing to abandon, and it is not an error.
    expect((await t.app.inject({ method: 'DELETE', url: '/api/v1/lead' })).statusCode).toBe(204);
  });
});
