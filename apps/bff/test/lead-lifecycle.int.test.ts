import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keysUnder } from '@funnel/testing/redis-keys';
import { answeredLead } from './complete-lead.js';
import { FUNNEL_NOW, STEP_ANSWERS, cookieOf } from './funnel-answers.js';
import { startTestApp, type TestApp } from './test-app.js';

const NOW = FUNNEL_NOW;

const PLAINTEXT_SECRETS = [
  '123456789',
  '123-45-6789',
  '000123456789',
  '021000021',
  'G1234-56789-01234',
  '1988-04-09',
];

describe('lead lifecycle on real Redis', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ now: () => NOW });
  });
  afterAll(async () => {
    await t.close();
  });

  async function createLead(
    body: Record<string, unknown> = { amount: 500, loanReason: 'DEBT_CONSOLIDATION', zipCode: '10001' },
  ) {
    const response = await t.app.inject({ method: 'POST', url: '/api/v1/lead', payload: body });
    return { response, cookie: response.statusCode === 201 ? cookieOf(response) : '' };
  }

  /** Saves `step` with its valid answer from STEP_ANSWERS. */
  function saveStep(cookie: string, step: string) {
    const answer = STEP_ANSWERS.find(([name]) => name === step)![1];
    return t.app.inject({
      method: 'PUT',
      url: `/api/v1/lead/steps/${step}`,
      payload: answer,
      headers: { cookie },
    });
  }

  async function answerStep(cookie: string, step: string): Promise<void> {
    const response = await saveStep(cookie, step);
    expect(response.statusCode, response.body).toBe(200);
  }

  it('creates a lead from the landing form with the looked-up place and a hardened cookie', async () => {
    const { response } = await createLead();
    expect(response.statusCode).toBe(201);
    const body = response.json();
    expect(body.nextStep).toBe('lgname');
    expect(body.progress).toBe(5);
    expect(body.answers).toMatchObject({
      amount: 500,
      loanReason: 'DEBT_CONSOLIDATION',
      zipCode: '10001',
      city: 'New York',
      state: 'NY',
    });
    const setCookie = String(response.headers['set-cookie']);
    expect(setCookie).toMatch(/HttpOnly/);
    expect(setCookie).toMatch(/Secure/);
    expect(setCookie).toMatch(/SameSite=Lax/);
    const id = response.cookies[0]!.value.split('.')[0]!;
    expect(Buffer.from(id, 'base64url').length).toBeGreaterThanOrEqual(16);
  });

  it('refuses an unknown ZIP with the spec message and stores nothing', async () => {
    const before = (await keysUnder(t.redis, `${t.env.REDIS_KEY_PREFIX}lead:`)).length;
    const { response } = await createLead({
      amount: 500,
      loanReason: 'DEBT_CONSOLIDATION',
      zipCode: '00000',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      error: {
        requestId: expect.any(String),
        code: 'VALIDATION_FAILED',
        message: 'Invalid zip code!',
        fields: { zipCode: 'Invalid zip code!' },
      },
    });
    expect((await keysUnder(t.redis, `${t.env.REDIS_KEY_PREFIX}lead:`)).length).toBe(before);
  });

  it('walks every step in order, masks sensitive answers and encrypts them at rest', async () => {
    const { cookie } = await createLead();
    for (const [index, [step, answer]] of STEP_ANSWERS.entries()) {
      const response = await t.app.inject({
        method: 'PUT',
        url: `/api/v1/lead/steps/${step}`,
        payload: answer,
        headers: { cookie },
      });
      expect(response.statusCode, `${step}: ${response.body}`).toBe(200);
      const expectedNext = STEP_ANSWERS[index + 1]?.[0] ?? 'ssn';
      expect(response.json().nextStep, `after ${step}`).toBe(expectedNext);
    }

    const summary = (await t.app.inject({ method: 'GET', url: '/api/v1/lead', headers: { cookie } })).json();
    expect(summary.nextStep).toBe('ssn');
    expect(summary.progress).toBe(96.2);
    expect(summary.answers).toMatchObject({
      firstName: 'Maria',
      phone: '2125550142',
      city: 'New York',
      state: 'NY',
      bankName: expect.stringMatching(/^Jpmorgan Chase/),
      incomeNextDate1: '2026-11-27',
      incomeNextDate2: '2026-12-11',
    });
    expect(summary.masked).toEqual({
      dob: 'on file',
      routingNumber: '•••• 0021',
      bankAccount: '•••• 6789',
      licenseID: '•••• 1234',
      socialSecurityNumber: '•••• 6789',
    });
    for (const secret of PLAINTEXT_SECRETS) expect(JSON.stringify(summary)).not.toContain(secret);

    const keys = await keysUnder(t.redis, t.env.REDIS_KEY_PREFIX);
    let dump = '';
    for (const key of keys) {
      const type = await t.redis.type(key);
      dump += type === 'hash' ? JSON.stringify(await t.redis.hgetall(key)) : String(await t.redis.dump(key));
    }
    // Answers that name nobody stay readable; the person's name and contact are sealed like the secrets.
    expect(dump).toContain('DEBT_CONSOLIDATION');
    for (const secret of PLAINTEXT_SECRETS) expect(dump).not.toContain(secret);
    expect(dump).not.toMatch(/maria|garcia|2125550142/i);
  });

  it('answers 400 with the spec message for bad input on every step and stores nothing', async () => {
    // Every step answered, so each one is open to be saved again (as after going Back).
    const { cookie } = await answeredLead(t.app);
    const badInputs: Array<[string, Record<string, unknown>, string, string]> = [
      ['lgname', { firstName: '', lastName: 'X' }, 'firstName', 'First name is required!'],
      ['email', { email: 'not-an-email' }, 'email', 'Invalid email address'],
      ['cellphone', { phone: '1125550142' }, 'phone', 'The phone number is not correct!'],
      ['dob', { dob: '2015-01-01' }, 'dob', 'You are not yet 18 years old'],
      [
        'address',
        { streetAddress: '12 Main St; DROP', zipCode: '10001' },
        'streetAddress',
        'The address can not contain special characters!',
      ],
      ['address', { streetAddress: '12 Main St', zipCode: '00000' }, 'zipCode', 'Invalid zip code!'],
      ['hometime', {}, 'currentResidenceDuration', 'Please select one option.'],
      ['ownhome', {}, 'residenceOwnership', 'Please choose an answer'],
      ['deposit', {}, 'getDirectDeposit', 'Please choose an answer!'],
      ['nextpaydate', { incomeNextDate1: '2026-11-21' }, 'incomeNextDate1', 'Please select a business day'],
      [
        'nextpaydate',
        { incomeNextDate1: '2026-12-31' },
        'incomeNextDate1',
        'Please select a date within the next 30 days',
      ],
      [
        'ssn',
        { socialSecurityNumber: '666-12-3456' },
        'socialSecurityNumber',
        'Please enter a valid Social Security Number',
      ],
      ['empinfor', { employerName: '', jobTitle: 'Clerk' }, 'employerName', 'Employer name is required!'],
      ['aba', { routingNumber: '021000022', bankName: 'X' }, 'routingNumber', 'Invalid Routing Number!'],
      ['aba', { routingNumber: '123456780', bankName: '' }, 'bankName', 'Bank Name is required!'],
      ['bankaccount', { bankAccount: '123' }, 'bankAccount', 'Please enter at least 4 digits'],
      ['driverid', { licenseID: 'X', issuingState: 'NY' }, 'licenseID', 'Please enter at least 2 characters'],
      ['driverid', { licenseID: 'AB123', issuingState: '' }, 'issuingState', 'Issuing state is required!'],
      [
        'ssn',
        { socialSecurityNumber: '123-45-678' },
        'socialSecurityNumber',
        'Invalid social security number format xxx-xx-xxxx',
      ],
      [
        'ssn',
        { socialSecurityNumber: '666-45-678' },
        'socialSecurityNumber',
        'Invalid social security number format xxx-xx-xxxx',
      ],
    ];
    const before = await t.app.inject({ method: 'GET', url: '/api/v1/lead', headers: { cookie } });
    for (const [step, payload, field, message] of badInputs) {
      const response = await t.app.inject({
        method: 'PUT',
        url: `/api/v1/lead/steps/${step}`,
        payload,
        headers: { cookie },
      });
      expect(response.statusCode, `${step} ${JSON.stringify(payload)}`).toBe(400);
      expect(response.json().error.fields[field], `${step} ${JSON.stringify(payload)}`).toBe(message);
    }
    const after = await t.app.inject({ method: 'GET', url: '/api/v1/lead', headers: { cookie } });
    expect({ ...after.json(), answers: { ...after.json().answers, updatedAt: undefined } }).toEqual({
      ...before.json(),
      answers: { ...before.json().answers, updatedAt: undefined },
    });
  });

  it('refuses a work phone equal to the cell phone', async () => {
    const upToWorkphone = STEP_ANSWERS.slice(
      0,
      STEP_ANSWERS.findIndex(([step]) => step === 'workphone'),
    );
    const { cookie } = await answeredLead(t.app, { steps: upToWorkphone });
    const response = await t.app.inject({
      method: 'PUT',
      url: '/api/v1/lead/steps/workphone',
      payload: { employerPhone: '(212)-555-0142' },
      headers: { cookie },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.fields.employerPhone).toBe(
      'Company phone number must not be the same as personal phone number!',
    );
  });

  it('refuses a step saved ahead of the first unanswered one, and names that step (issue 33)', async () => {
    const { cookie } = await createLead();
    const ahead = await t.app.inject({
      method: 'PUT',
      url: '/api/v1/lead/steps/cellphone',
      payload: { phone: '(212)-555-0142' },
      headers: { cookie },
    });
    expect(ahead.statusCode).toBe(409);
    expect(ahead.json()).toEqual({
      error: {
        requestId: expect.any(String),
        code: 'STEP_OUT_OF_ORDER',
        message: 'Please answer the earlier questions first.',
        nextStep: 'lgname',
      },
    });
    // Nothing was stored: the lead still waits on its first step, and the phone is not on file.
    const summary = await t.app.inject({ method: 'GET', url: '/api/v1/lead', headers: { cookie } });
    expect(summary.json().nextStep).toBe('lgname');
    expect(summary.json().masked.phone).toBeUndefined();

    // One step answered: the next one is open, the one after it is still refused, and names the next one.
    await answerStep(cookie, 'lgname');
    expect((await saveStep(cookie, 'cellphone')).json().error).toMatchObject({
      code: 'STEP_OUT_OF_ORDER',
      nextStep: 'email',
    });
    expect((await saveStep(cookie, 'email')).json()).toEqual({ nextStep: 'cellphone', progress: 11.5 });
  });

  it('keeps going Back and saving an answered step again: it answers the screen after it', async () => {
    const upToDob = STEP_ANSWERS.slice(
      0,
      STEP_ANSWERS.findIndex(([step]) => step === 'dob'),
    );
    const { cookie } = await answeredLead(t.app, { steps: upToDob });
    // Back to the name, changed: the first unanswered step is still dob.
    const again = await t.app.inject({
      method: 'PUT',
      url: '/api/v1/lead/steps/lgname',
      payload: { firstName: 'Mary', lastName: 'Garcia' },
      headers: { cookie },
    });
    expect(again.statusCode).toBe(200);
    expect(again.json()).toMatchObject({ nextStep: 'dob' });
    // And the phone, a step answered later than the name, saved again as well.
    const phone = await saveStep(cookie, 'cellphone');
    expect(phone.statusCode).toBe(200);
    expect(phone.json()).toMatchObject({ nextStep: 'dob' });
    expect((await saveStep(cookie, 'dob')).json()).toMatchObject({ nextStep: 'address' });
    const summary = await t.app.inject({ method: 'GET', url: '/api/v1/lead', headers: { cookie } });
    expect(summary.json().answers.firstName).toBe('Mary');
  });

  it("never shows one visitor another's lead: no cookie, a tampered cookie and a foreign id all answer 404", async () => {
    const first = await createLead();
    await t.app.inject({
      method: 'PUT',
      url: '/api/v1/lead/steps/lgname',
      payload: { firstName: 'Ann', lastName: 'Lee' },
      headers: { cookie: first.cookie },
    });
    const second = await createLead();
    const mine = await t.app.inject({
      method: 'GET',
      url: '/api/v1/lead',
      headers: { cookie: second.cookie },
    });
    expect(mine.json().answers.firstName).toBeUndefined();

    // A new visitor (no cookie at all) is not an error (issue 25): 204, no body.
    const none = await t.app.inject({ method: 'GET', url: '/api/v1/lead' });
    expect(none.statusCode).toBe(204);
    expect(none.body).toBe('');
    // A cookie whose lead cannot be opened is an ended session.
    const gone = await t.app.inject({
      method: 'GET',
      url: '/api/v1/lead',
      headers: { cookie: `funnel_lead=${'x'.repeat(22)}` },
    });
    expect(gone.statusCode).toBe(404);
    expect(gone.json().error).toEqual({
      code: 'SESSION_EXPIRED',
      message: 'This session is invalid or expired. Please start over!',
      requestId: expect.any(String),
    });

    const [name, value] = first.cookie.split('=') as [string, string];
    const [id] = value.split('.') as [string];
    const forged = `${name}=${id}.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA`;
    const tampered = await t.app.inject({ method: 'GET', url: '/api/v1/lead', headers: { cookie: forged } });
    expect(tampered.statusCode).toBe(404);
    const unsigned = await t.app.inject({
      method: 'GET',
      url: '/api/v1/lead',
      headers: { cookie: `${name}=${id}` },
    });
    expect(unsigned.statusCode).toBe(404);
    const save = await t.app.inject({
      method: 'PUT',
      url: '/api/v1/lead/steps/lgname',
      payload: { firstName: 'Eve', lastName: 'X' },
      headers: { cookie: forged },
    });
    expect(save.statusCode).toBe(404);
  });

  it('pre-fills a new lead from a deep link without resuming anyone else', async () => {
    const { response } = await createLead({ email: 'maria.garcia@example.com', loanReason: 'MEDICAL' });
    expect(response.statusCode).toBe(201);
    expect(response.json().answers).toMatchObject({
      email: 'maria.garcia@example.com',
      loanReason: 'MEDICAL',
    });
    expect(response.json().answers.firstName).toBeUndefined();
    expect(response.json().nextStep).toBe('lgname');
  });
});

describe('lookups, suggestions and limits', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ env: { RATE_LIMIT_MAX: '5' } });
  });
  afterAll(async () => {
    await t.close();
  });

  it('looks up a ZIP and a routing number', async () => {
    const zip = await t.app.inject({ method: 'GET', url: '/api/v1/lookup/zip/90210' });
    expect(zip.json()).toMatchObject({ city: 'Beverly Hills', state: 'CA' });
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/lookup/zip/00000' })).statusCode).toBe(404);
    const bank = await t.app.inject({ method: 'GET', url: '/api/v1/lookup/routing/021000021' });
    expect(bank.json().bankName).toMatch(/^Jpmorgan Chase/);
    const bad = await t.app.inject({ method: 'GET', url: '/api/v1/lookup/routing/021000022' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.message).toBe('Invalid Routing Number!');
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/lookup/routing/123456780' })).statusCode).toBe(
      404,
    );
  });

  it('suggests names and titles and answers 429 past the limit', async () => {
    const names = await t.app.inject({ method: 'GET', url: '/api/v1/suggest/first_name?q=mar' });
    expect(names.statusCode).toBe(200);
    expect(names.json().suggestions[0]).toBe('Mary');
    const address = await t.app.inject({ method: 'GET', url: '/api/v1/suggest/address?q=350%20W&zip=10001' });
    expect(address.json()).toEqual({ suggestions: [] });
    const tooLong = await t.app.inject({
      method: 'GET',
      url: `/api/v1/suggest/job_title?q=${'a'.repeat(50)}`,
    });
    expect(tooLong.statusCode).toBe(400);
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      statuses.push(
        (await t.app.inject({ method: 'GET', url: '/api/v1/suggest/last_name?q=smi' })).statusCode,
      );
    }
    expect(statuses).toContain(429);
    const limited = await t.app.inject({ method: 'GET', url: '/api/v1/suggest/last_name?q=smi' });
    expect(limited.json().error.code).toBe('RATE_LIMITED');
  });

  it('serves the OpenAPI document and health probes', async () => {
    const doc = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(doc.statusCode).toBe(200);
    expect(doc.json().openapi).toBe('3.1.0');
    expect(Object.keys(doc.json().paths)).toEqual(
      expect.arrayContaining(['/api/v1/lead', '/api/v1/lead/steps/lgname', '/api/v1/lead/steps/ssn']),
    );
    expect((await t.app.inject({ method: 'GET', url: '/readyz' })).json()).toEqual({ status: 'ready' });
  });

  it('accepts a client error report and rejects an oversized one', async () => {
    const ok = await t.app.inject({
      method: 'POST',
      url: '/api/v1/logs',
      payload: { pretext: 'step save', text: 'boom' },
    });
    expect(ok.statusCode).toBe(204);
    const big = await t.app.inject({
      method: 'POST',
      url: '/api/v1/logs',
      payload: { pretext: 'x', text: 'y'.repeat(9000) },
    });
    expect(big.statusCode).toBe(413);
    expect(big.json().error.code).toBe('PAYLOAD_TOO_LARGE');
  });
});
