import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LeadEventSchema, type LeadEvent } from '@funnel/contracts/lead-events';
import { STEP_NAMES } from '@funnel/contracts/steps';
import { archiveConsents } from '@funnel/db/consent-archive';
import { migrate, openDatabase, type Database } from '@funnel/db/database';
import { recordEvents } from '@funnel/db/record-events';
import { EventOutbox } from '@funnel/lead-store/event-outbox';
import { FieldCipher } from '@funnel/lead-store/field-cipher';
import { dropSchema, testDatabaseUrl, testSchema } from '@funnel/testing/postgres';
import { submittedLead } from './complete-lead.js';
import { FUNNEL_NOW, STEP_ANSWERS } from './funnel-answers.js';
import { partnerKey } from './partner-keys.js';
import { startTestApp, type TestApp } from './test-app.js';

const TOKEN = 'operator-'.padEnd(40, 'j');
const auth = { authorization: `Bearer ${TOKEN}` };

/** A borrower whose answers are easy to spot in any response. */
const EMAIL = 'journey.person@example.com';
const SSN = '321-54-9877';
const PERSONAL = [EMAIL, SSN, '321549877', 'Maria', 'Garcia', '1988-04-09', '000123456789', '127.0.0.1'];
const ACME = partnerKey('acme', 'aff-acme');
const PARTNER_PHONE = '(718) 555-0177';

/** A complete partner lead of another borrower (so it is no duplicate of the funnel one). */
function partnerLead(): Record<string, unknown> {
  return {
    amount: 500,
    loanReason: 'MEDICAL',
    ...Object.assign({}, ...STEP_ANSWERS.map(([, answer]) => answer)),
    email: 'partner.borrower@example.com',
    phone: PARTNER_PHONE,
    dob: '1979-02-11',
    socialSecurityNumber: '321-54-9878',
    consent: {
      button: 'REQUEST_CASH',
      at: '2026-11-17T14:58:00Z',
      ip: '203.0.113.45',
      userAgent: 'Mozilla/5.0 (partner borrower)',
      pageUrl: 'https://loans.partner.example/apply',
    },
  };
}

describe("any lead's journey (issue 33): the operator's lead search and a lead's timeline", () => {
  const schema = testSchema('bffjourney');
  const url = `${testDatabaseUrl()}?options=${encodeURIComponent(`-c search_path=${schema}`)}`;
  let db: Kysely<Database>;
  let t: TestApp;
  let leadId: string;
  let partnerLeadId: string;

  /** What the worker's drain does, inline: every event in the stream, written once. */
  async function drain(): Promise<void> {
    const key = new EventOutbox(t.redis, { keyPrefix: t.env.REDIS_KEY_PREFIX }).key;
    const entries = await t.redis.xrange(key, '-', '+');
    await recordEvents(
      db,
      entries.map(([, fields]) => LeadEventSchema.parse(JSON.parse(fields[1]!))),
    );
  }

  /** What the worker records for this lead: two buyers tried, the second buys it. */
  function workerEvents(id: string): LeadEvent[] {
    const at = (seconds: number) => new Date(FUNNEL_NOW.getTime() + seconds * 1000).toISOString();
    const attempt = (
      step: number,
      buyer: string,
      result: 'rejected' | 'sold',
      price?: number,
    ): LeadEvent => ({
      eventId: `${id}.attempt.${step}`,
      leadId: id,
      at: at(2 + step),
      type: 'buyer_attempt',
      attemptKey: `${id}:${step}`,
      step,
      buyer,
      tier: 0,
      floor: 40,
      result,
      latencyMs: 420 + step,
      fieldErrors:
        result === 'rejected'
          ? [{ field: 'employerPhone', buyerField: 'WorkPhone', description: 'Work phone is not valid' }]
          : [],
      ...(price !== undefined ? { price } : {}),
    });
    return [
      {
        eventId: `screened-${id}`,
        leadId: id,
        at: at(1),
        type: 'screened',
        verdict: 'flag',
        score: 70,
        reasons: ['email_no_mail'],
        unchecked: [],
        ms: 40,
      },
      attempt(0, 'buyer-east', 'rejected'),
      attempt(1, 'buyer-west', 'sold', 55),
      {
        eventId: `${id}.outcome`,
        leadId: id,
        at: at(4),
        type: 'outcome',
        outcome: 'sold',
        redirectHost: 'lender.example',
        secondsToDecision: 4,
      },
      ...[500, 204].map((status, index): LeadEvent => ({
        eventId: `${id}.delivery.affiliate_postback.aff-journey.sold.${index + 1}`,
        leadId: id,
        at: at(5 + index * 10),
        type: 'delivery_attempt',
        channel: 'affiliate_postback',
        target: 'aff-journey',
        host: 'track.affiliate.example',
        event: 'sold',
        attempt: index + 1,
        maxAttempts: 8,
        result: status === 500 ? 'failed' : 'delivered',
        status,
        latencyMs: 30,
        ...(status === 500 ? { nextAttemptAt: at(15) } : {}),
        gaveUp: false,
      })),
    ];
  }

  async function get(path: string) {
    const response = await t.app.inject({ method: 'GET', url: `/api/v1/admin/${path}`, headers: auth });
    return { status: response.statusCode, body: response.json(), text: response.body };
  }

  async function search(filters: Record<string, unknown>) {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/v1/admin/leads/search',
      payload: filters,
      headers: auth,
    });
    return { status: response.statusCode, body: response.json() };
  }

  const idsOf = (body: { leads: Array<{ leadId: string }> }) => body.leads.map((lead) => lead.leadId);

  beforeAll(async () => {
    db = openDatabase({ url: testDatabaseUrl(), schema });
    await migrate(db, schema);
    t = await startTestApp({
      now: () => FUNNEL_NOW,
      env: {
        DATABASE_URL: url,
        ADMIN_API_TOKEN: TOKEN,
        PARTNER_API_KEYS: ACME.entry,
        DUPLICATE_WINDOW_DAYS: '30',
      },
    });
    ({ id: leadId } = await submittedLead(t.app, {
      landing: {
        amount: 1000,
        loanReason: 'MEDICAL',
        zipCode: '10001',
        landingParams: { pubs: 'aff-journey', clickid: 'click-journey-1' },
      },
      steps: STEP_ANSWERS.map(([step, answer]) => [
        step,
        step === 'email' ? { email: EMAIL } : step === 'ssn' ? { socialSecurityNumber: SSN } : answer,
      ]),
    }));
    // The worker's drain archives the consent (sealed) and records the buyers' attempts and the outcome.
    const copy = await t.app.leadStore.consents.get(leadId);
    await archiveConsents(db, [copy!], {
      sealer: new FieldCipher(t.env.FIELD_ENCRYPTION_KEYS),
      retentionDays: 1826,
    });
    await recordEvents(db, workerEvents(leadId));
    const posted = await t.app.inject({
      method: 'POST',
      url: '/api/v1/partner/leads',
      payload: partnerLead(),
      headers: { authorization: `Bearer ${ACME.key}`, 'idempotency-key': 'acme-order-7731' },
    });
    expect(posted.statusCode, posted.body).toBe(202);
    partnerLeadId = posted.json().leadId;
    await drain();
  });
  afterAll(async () => {
    await t.close();
    await db.destroy();
    await dropSchema(schema);
  });

  it('finds a lead by its id, affiliate and day, click id, buyer, outcome, email or phone', async () => {
    for (const filters of [
      { leadId },
      { affiliate: 'aff-journey', from: '2026-11-17', to: '2026-11-17' },
      { clickId: 'click-journey-1' },
      { buyer: 'buyer-east' },
      { buyer: 'buyer-west', outcome: 'sold', source: 'funnel' },
      { screening: 'flag' },
      { email: EMAIL.toUpperCase() },
      { phone: '212 555 0142' },
    ]) {
      const { status, body } = await search(filters);
      expect(status, JSON.stringify(filters)).toBe(200);
      expect(idsOf(body), JSON.stringify(filters)).toEqual([leadId]);
    }
    const { body } = await search({ leadId });
    expect(body).toEqual({
      leads: [
        {
          leadId,
          createdAt: FUNNEL_NOW.toISOString(),
          source: 'funnel',
          partner: null,
          affiliate: 'aff-journey',
          clickId: 'click-journey-1',
          amount: 1000,
          state: 'NY',
          submittedAt: FUNNEL_NOW.toISOString(),
          outcome: 'sold',
          outcomeReason: null,
          screeningVerdict: 'flag',
          screeningScore: 70,
        },
      ],
      more: false,
    });
    // Filters that rule it out find nothing.
    for (const filters of [
      { affiliate: 'aff-other' },
      { buyer: 'buyer-north' },
      { leadId, outcome: 'pending' },
      { screening: 'block' },
      { from: '2026-11-18' },
      { email: 'nobody@example.com' },
    ]) {
      expect((await search(filters)).body.leads, JSON.stringify(filters)).toEqual([]);
    }
  });

  it("finds a partner's lead by the partner and the idempotency key it was posted with", async () => {
    const found = await search({ partner: 'acme', idempotencyKey: 'acme-order-7731' });
    expect(idsOf(found.body)).toEqual([partnerLeadId]);
    expect(found.body.leads[0]).toMatchObject({ source: 'partner', partner: 'acme', outcome: 'pending' });
    expect(idsOf((await search({ phone: PARTNER_PHONE })).body)).toEqual([partnerLeadId]);
    expect((await search({ partner: 'globex', idempotencyKey: 'acme-order-7731' })).body.leads).toEqual([]);
    // The test's clock stands still: both leads were created at the same instant, so they come by id.
    expect(idsOf((await search({ from: '2026-11-17' })).body)).toEqual([partnerLeadId, leadId].sort());
  });

  it('shows every step, the consent evidence, each attempt and the outcome in order, and no answer', async () => {
    const { status, body, text } = await get(`leads/${leadId}`);
    expect(status).toBe(200);
    for (const value of PERSONAL) expect(text).not.toContain(value);
    expect(body.erased).toBe(false);

    const kinds = body.timeline.map((entry: { kind: string; event?: { type: string } }) =>
      entry.kind === 'event' ? entry.event!.type : entry.kind,
    );
    expect(kinds[0]).toBe('created');
    expect(kinds.filter((kind: string) => kind === 'step_completed')).toHaveLength(STEP_ANSWERS.length);
    expect(kinds.slice(-7)).toEqual([
      'submitted',
      'screened',
      'buyer_attempt',
      'buyer_attempt',
      'outcome',
      'delivery_attempt',
      'delivery_attempt',
    ]);
    const steps = body.timeline
      .filter((entry: { event?: { type: string } }) => entry.event?.type === 'step_completed')
      .map((entry: { event: { step: string } }) => entry.event.step);
    expect(steps).toEqual(STEP_NAMES.filter((step) => steps.includes(step)));

    const consent = body.timeline.find((entry: { kind: string }) => entry.kind === 'consent');
    expect(consent.consent).toMatchObject({
      button: 'REQUEST_FUNDS',
      pageUrl: expect.stringContaining('/ssn'),
    });
    expect(consent.consent.textSha256).toMatch(/^[a-f0-9]{64}$/);

    const attempts = body.timeline.filter(
      (entry: { event?: { type: string } }) => entry.event?.type === 'buyer_attempt',
    );
    expect(attempts.map((entry: { event: object }) => entry.event)).toEqual([
      expect.objectContaining({ buyer: 'buyer-east', result: 'rejected', latencyMs: 420 }),
      expect.objectContaining({ buyer: 'buyer-west', result: 'sold', price: 55, latencyMs: 421 }),
    ]);
    expect(attempts[0].event.fieldErrors).toEqual([
      { field: 'employerPhone', buyerField: 'WorkPhone', description: 'Work phone is not valid' },
    ]);
    expect(body.timeline.at(-3).event).toMatchObject({ outcome: 'sold', redirectHost: 'lender.example' });
    // The affiliate's postback: each attempt with its answer, and when the failed one was to be retried.
    expect(body.timeline.slice(-2).map((entry: { event: object }) => entry.event)).toEqual([
      expect.objectContaining({ attempt: 1, result: 'failed', status: 500, host: 'track.affiliate.example' }),
      expect.objectContaining({ attempt: 2, result: 'delivered', status: 204, gaveUp: false }),
    ]);
  });

  it('says who bought the lead and for how much, and names the lead a duplicate borrower applied with first', async () => {
    expect((await get(`leads/${leadId}`)).body.sale).toEqual({
      buyer: 'buyer-west',
      price: 55,
      returned: false,
    });
    expect((await get(`leads/${partnerLeadId}`)).body.sale).toBeNull();
    // The same person (their SSN) again, with another email.
    const duplicate = await submittedLead(t.app, {
      steps: STEP_ANSWERS.map(([step, answer]) => [
        step,
        step === 'email'
          ? { email: 'journey.again@example.com' }
          : step === 'ssn'
            ? { socialSecurityNumber: SSN }
            : answer,
      ]),
    });
    await drain();
    const { body } = await get(`leads/${duplicate.id}`);
    expect(body.timeline.at(-1).event).toMatchObject({
      type: 'outcome',
      outcome: 'no_lender',
      reason: 'duplicate',
      duplicateOf: leadId,
    });
    expect(body.sale).toBeNull();
  });

  it('after a deletion request, shows what is left and says the lead was erased', async () => {
    const erased = await t.app.inject({
      method: 'POST',
      url: '/api/v1/admin/deletion-requests',
      payload: { email: EMAIL },
      headers: auth,
    });
    expect(erased.json().leadsDeleted).toBe(1);
    await drain();

    const { body } = await get(`leads/${leadId}`);
    expect(body.erased).toBe(true);
    expect(body.timeline.find((entry: { kind: string }) => entry.kind === 'consent')).toBeUndefined();
    expect(body.timeline.at(-1).event).toMatchObject({ type: 'erased', requestId: erased.json().requestId });
    // The journey itself (steps, attempts, outcome) names nobody, so it stays.
    expect(
      body.timeline.filter((entry: { event?: { type: string } }) => entry.event?.type === 'buyer_attempt'),
    ).toHaveLength(2);
  });

  it('answers an unknown lead with 404, a bad filter with its message, and no operator with 401', async () => {
    expect((await get('leads/unknown-lead-id-0000000000')).status).toBe(404);
    const badOutcome = await search({ outcome: 'maybe', from: '2026-11' });
    expect(badOutcome.status).toBe(400);
    expect(badOutcome.body.error.fields).toEqual({
      outcome: 'outcome must be one of: pending, sold, rejected, no_lender.',
      from: 'from must be a date as YYYY-MM-DD, such as 2026-11-10.',
    });
    const badRange = await search({ from: '2026-11-30', to: '2026-11-01' });
    expect(badRange.body.error.fields).toEqual({ to: "'from' must not be after 'to'." });
    const keyAlone = await search({ idempotencyKey: 'acme-order-7731' });
    expect(keyAlone.body.error.fields).toEqual({
      partner: 'An idempotency key belongs to one partner: give the partner too.',
    });
    const anonymous = await t.app.inject({ method: 'GET', url: `/api/v1/admin/leads/${leadId}` });
    expect(anonymous.statusCode).toBe(401);
  });
});
