import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { partnerKey } from './partner-keys.js';
import { keysUnder } from '@funnel/testing/redis-keys';
import { SUBMIT, answeredLead, submittedLead } from './complete-lead.js';
import { FUNNEL_NOW, STEP_ANSWERS } from './funnel-answers.js';
import { startTestApp, type TestApp } from './test-app.js';

const ACME = partnerKey('acme', 'aff-acme');
const GLOBEX = partnerKey('globex', 'aff-globex');
const ADMIN_TOKEN = 'operator-'.padEnd(40, 'x');

/** A complete lead as a partner posts it; `borrower` overrides who it is. */
function leadBody(borrower: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    amount: 1000,
    loanReason: 'MEDICAL',
    ...Object.assign({}, ...STEP_ANSWERS.map(([, answer]) => answer)),
    consent: {
      at: '2026-11-17T14:58:00Z',
      ip: '203.0.113.45',
      userAgent: 'Mozilla/5.0 (partner borrower)',
      pageUrl: 'https://loans.partner.example/apply',
    },
    ...borrower,
  };
}

describe('duplicate borrowers', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({
      now: () => FUNNEL_NOW,
      env: {
        PARTNER_API_KEYS: [ACME.entry, GLOBEX.entry].join(','),
        ADMIN_API_TOKEN: ADMIN_TOKEN,
        DUPLICATE_WINDOW_DAYS: '30',
      },
    });
  });
  afterAll(async () => {
    await t.close();
  });

  const post = (partner: { key: string }, body: Record<string, unknown>) =>
    t.app.inject({
      method: 'POST',
      url: '/api/v1/partner/leads',
      payload: body,
      headers: {
        authorization: `Bearer ${partner.key}`,
        'idempotency-key': randomBytes(8).toString('hex'),
      },
    });
  const leadCount = async () => (await keysUnder(t.redis, `${t.env.REDIS_KEY_PREFIX}lead:`)).length;

  it('refuses a borrower two partners post: the earlier lead is named only to the partner who posted it', async () => {
    const first = await post(ACME, leadBody());
    expect(first.statusCode).toBe(202);
    const firstId = first.json().leadId as string;
    const leads = await leadCount();

    const byGlobex = await post(GLOBEX, leadBody());
    expect(byGlobex.statusCode).toBe(409);
    expect(byGlobex.json()).toEqual({
      error: {
        requestId: expect.any(String),
        code: 'DUPLICATE_LEAD',
        message: 'This borrower was already submitted recently; the lead is not posted again.',
      },
    });
    // The same person found by email and birth date alone (another SSN typed).
    const byAcme = await post(ACME, leadBody({ socialSecurityNumber: '234-56-7890' }));
    expect(byAcme.statusCode).toBe(409);
    expect(byAcme.json().error).toMatchObject({ code: 'DUPLICATE_LEAD', leadId: firstId });

    expect(await leadCount()).toBe(leads);
    const jobs = await t.app.submissionQueue.getJobs(['waiting', 'delayed', 'active']);
    expect(jobs.map((job) => job.data.leadId)).toEqual([firstId]);
    const metrics = (await t.app.inject({ method: 'GET', url: '/metrics' })).body;
    expect(metrics).toContain('funnel_duplicate_leads_total{source="partner",affiliate="aff-globex"} 1');
    expect(metrics).toContain('funnel_duplicate_leads_total{source="partner",affiliate="aff-acme"} 1');

    // Another borrower is welcome.
    const other = await post(
      GLOBEX,
      leadBody({ socialSecurityNumber: '345-67-8901', email: 'ana@example.com' }),
    );
    expect(other.statusCode).toBe(202);
  });

  it('shows a funnel borrower already submitted the no-lender outcome, and never posts the lead', async () => {
    const { cookie, id } = await answeredLead(t.app);
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/v1/lead/submit',
      payload: SUBMIT,
      headers: { cookie },
    });
    expect(response.statusCode).toBe(202);
    expect(response.json()).toEqual({ outcome: 'no_lender' });
    const lead = await t.app.inject({ method: 'GET', url: '/api/v1/lead', headers: { cookie } });
    expect(lead.json().outcome).toMatchObject({ outcome: 'no_lender', reason: 'duplicate' });
    expect(await t.app.submissionQueue.getJob(id)).toBeUndefined();
    // A second click answers the same and still posts nothing.
    const again = await t.app.inject({
      method: 'POST',
      url: '/api/v1/lead/submit',
      payload: SUBMIT,
      headers: { cookie },
    });
    expect(again.json()).toEqual({ outcome: 'no_lender' });
    expect(await t.app.submissionQueue.getJob(id)).toBeUndefined();
  });

  it("never shows a duplicate another lead's outcome, redirect or answers, whatever visitor id it sends", async () => {
    const borrower: Array<[string, Record<string, unknown>]> = STEP_ANSWERS.map(([step, answer]) => [
      step,
      step === 'ssn'
        ? { socialSecurityNumber: '456-78-9012' }
        : step === 'email'
          ? { email: 'returning@example.com' }
          : answer,
    ]);
    const victimHeaders = { cookie: 'visitor_id=v-victim-1' };
    const first = await submittedLead(t.app, { steps: borrower, headers: victimHeaders });
    const redirectUrl = 'https://lender.example/offer/42';
    await t.app.leadStore.setOutcome(first.id, { outcome: 'sold', redirectUrl });

    // Another browser types the victim's email, birth date and SSN and sends the victim's visitor id.
    const second = await answeredLead(t.app, { steps: borrower, headers: victimHeaders });
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/v1/lead/submit',
      payload: SUBMIT,
      headers: { cookie: `${second.cookie}; visitor_id=v-victim-1` },
    });
    expect(response.statusCode).toBe(202);
    expect(response.json()).toEqual({ outcome: 'no_lender' });
    const lead = await t.app.inject({
      method: 'GET',
      url: '/api/v1/lead',
      headers: { cookie: second.cookie },
    });
    expect(lead.json().outcome).toMatchObject({ outcome: 'no_lender', reason: 'duplicate' });
    expect(lead.json().outcome.redirectUrl).toBeUndefined();
    const everything = `${response.body}${lead.body}`;
    expect(everything).not.toContain(first.id);
    expect(everything).not.toContain('lender.example');
    expect(everything).not.toContain('sold');
    expect(await t.app.submissionQueue.getJob(second.id)).toBeUndefined();
    // The victim's own session still reads the victim's outcome.
    const own = await t.app.inject({ method: 'GET', url: '/api/v1/lead', headers: { cookie: first.cookie } });
    expect(own.json().outcome).toMatchObject({ outcome: 'sold', redirectUrl });
  });

  it('forgets the borrower on a deletion request, so they can apply again', async () => {
    const body = leadBody({ socialSecurityNumber: '567-89-0123', email: 'erase.me@example.com' });
    expect((await post(ACME, body)).statusCode).toBe(202);
    expect((await post(GLOBEX, body)).statusCode).toBe(409);
    const borrowerKeys = async () => (await keysUnder(t.redis, `${t.env.REDIS_KEY_PREFIX}borrower:`)).length;
    const before = await borrowerKeys();

    const erased = await t.app.inject({
      method: 'POST',
      url: '/api/v1/admin/deletion-requests',
      payload: { email: 'erase.me@example.com' },
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    expect(erased.statusCode).toBe(200);
    expect(erased.json().leadsDeleted).toBe(1);
    expect(await borrowerKeys()).toBe(before - 2);
    expect((await post(GLOBEX, body)).statusCode).toBe(202);
  });
});
