import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LeadEventSchema } from '@funnel/contracts/lead-events';
import { STEP_NAMES } from '@funnel/contracts/steps';
import { migrate, openDatabase, type Database } from '@funnel/db/database';
import { recordEvents } from '@funnel/db/record-events';
import { EventOutbox } from '@funnel/lead-store/event-outbox';
import { FieldCipher } from '@funnel/lead-store/field-cipher';
import { archiveConsents } from '@funnel/db/consent-archive';
import { dropSchema, testDatabaseUrl, testSchema } from '@funnel/testing/postgres';
import { submittedLead } from './complete-lead.js';
import { FUNNEL_NOW, STEP_ANSWERS } from './funnel-answers.js';
import { startTestApp, type TestApp } from './test-app.js';

const TOKEN = 'operator-'.padEnd(40, 'r');
const PERSONAL = [
  'Maria',
  'Garcia',
  'maria.garcia',
  '123-45-6789',
  '123456789',
  '1988-04-09',
  '000123456789',
];

describe('the system of record, seen from the BFF', () => {
  const schema = testSchema('bffsor');
  const url = `${testDatabaseUrl()}?options=${encodeURIComponent(`-c search_path=${schema}`)}`;
  let db: Kysely<Database>;
  let t: TestApp;

  beforeAll(async () => {
    db = openDatabase({ url: testDatabaseUrl(), schema });
    await migrate(db, schema);
    t = await startTestApp({ now: () => FUNNEL_NOW, env: { DATABASE_URL: url, ADMIN_API_TOKEN: TOKEN } });
  });
  afterAll(async () => {
    await t.close();
    await db.destroy();
    await dropSchema(schema);
  });

  /** What the worker's drain does, inline: every event in the stream, written once. */
  async function drain(): Promise<string[]> {
    const key = new EventOutbox(t.redis, { keyPrefix: t.env.REDIS_KEY_PREFIX }).key;
    const entries = await t.redis.xrange(key, '-', '+');
    await recordEvents(
      db,
      entries.map(([, fields]) => LeadEventSchema.parse(JSON.parse(fields[1]!))),
    );
    return entries.map(([, fields]) => fields[1]!);
  }

  it('records a whole funnel run as events without personal data, and the reports count it', async () => {
    const { id } = await submittedLead(t.app, {
      landing: { amount: 1000, loanReason: 'MEDICAL', zipCode: '10001', landingParams: { pubs: 'aff-sor' } },
    });
    const raw = await drain();
    for (const value of PERSONAL) expect(raw.join('\n')).not.toContain(value);

    const events = await db
      .selectFrom('lead_events')
      .select(['type', 'data'])
      .where('lead_id', '=', id)
      .execute();
    expect(events.filter((e) => e.type === 'created')).toHaveLength(1);
    expect(events.filter((e) => e.type === 'step_completed')).toHaveLength(STEP_ANSWERS.length);
    expect(events.filter((e) => e.type === 'submitted')).toHaveLength(1);
    const summary = await db
      .selectFrom('lead_summary')
      .selectAll()
      .where('lead_id', '=', id)
      .executeTakeFirstOrThrow();
    expect(summary).toMatchObject({ source: 'funnel', affiliate: 'aff-sor', amount: 1000, state: 'NY' });
    expect(summary.submitted_at).toBeInstanceOf(Date);

    const query = 'from=2026-11-01&to=2026-11-30&affiliate=aff-sor';
    const unauthorized = await t.app.inject({ method: 'GET', url: `/api/v1/admin/reports/funnel?${query}` });
    expect(unauthorized.statusCode).toBe(401);
    const report = await t.app.inject({
      method: 'GET',
      url: `/api/v1/admin/reports/funnel?${query}`,
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(report.statusCode).toBe(200);
    expect(report.json().outcomes).toEqual({ created: 1, submitted: 1, sold: 0, rejected: 0, noLender: 0 });
    expect(report.json().steps.at(-1)).toEqual({
      step: STEP_NAMES.at(-1),
      reached: 1,
      completed: 1,
      dropOff: 0,
      dropOffRate: 0,
    });

    const csv = await t.app.inject({
      method: 'GET',
      url: `/api/v1/admin/reports/funnel?${query}&format=csv`,
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    const lines = csv.body.trim().split('\r\n');
    expect(lines[0]).toBe('step,reached,completed,drop_off,drop_off_rate');
    expect(lines[1]).toBe('landing,1,1,0,0.0000');
    expect(lines).toHaveLength(1 + 1 + STEP_NAMES.length);

    const sales = await t.app.inject({
      method: 'GET',
      url: `/api/v1/admin/reports/sales?${query}`,
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(sales.json().rows).toEqual([
      {
        day: '2026-11-17',
        affiliate: 'aff-sor',
        submitted: 1,
        sold: 0,
        soldRate: 0,
        medianSecondsToDecision: null,
        p90SecondsToDecision: null,
      },
    ]);

    // What the worker's waterfall records for the lead: a rejection at one buyer's floor, a sale at another.
    const at = new Date().toISOString();
    const attempt = {
      leadId: id,
      at,
      type: 'buyer_attempt' as const,
      tier: 1,
      latencyMs: 90,
      fieldErrors: [],
    };
    await recordEvents(db, [
      {
        ...attempt,
        eventId: `attempt:${id}-0`,
        attemptKey: `${id}-0`,
        step: 0,
        buyer: 'prime',
        floor: 80,
        result: 'rejected',
      },
      {
        ...attempt,
        eventId: `attempt:${id}-1`,
        attemptKey: `${id}-1`,
        step: 1,
        buyer: 'prime',
        floor: 50,
        result: 'sold',
        price: 61.2,
      },
    ]);
    const buyers = await t.app.inject({
      method: 'GET',
      url: `/api/v1/admin/reports/buyers?${query}`,
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(buyers.json().rows).toEqual([
      {
        buyer: 'prime',
        attempts: 2,
        sold: 1,
        acceptRate: 0.5,
        revenue: 61.2,
        averagePrice: 61.2,
        timeouts: 0,
        capped: 0,
        // No buyer returned it: net is gross.
        returns: 0,
        returnedRevenue: 0,
        netRevenue: 61.2,
        pendingReturns: 0,
        conversions: 0,
        fundedAmount: 0,
      },
    ]);
    const buyersCsv = await t.app.inject({
      method: 'GET',
      url: `/api/v1/admin/reports/buyers?${query}&format=csv`,
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(buyersCsv.body.split('\r\n').slice(0, 2)).toEqual([
      'buyer,attempts,sold,accept_rate,average_price,timeouts,capped,revenue,returns,returned_revenue,' +
        'net_revenue,pending_returns,conversions,funded_amount',
      'prime,2,1,0.5000,61.20,0,0,61.20,0,0.00,61.20,0,0,0.00',
    ]);
  });

  it('reads consent from the archive once the drain moved it there, and erases it on a deletion request', async () => {
    const { id } = await submittedLead(t.app, {
      steps: STEP_ANSWERS.map(([step, answer]) => [
        step,
        step === 'email'
          ? { email: 'archived.person@example.com' }
          : step === 'ssn'
            ? { socialSecurityNumber: '321-54-9876' }
            : answer,
      ]),
    });
    // What the worker's drain does with a submitted lead's consent: archive it sealed, then drop the Redis copy.
    const sealer = new FieldCipher(t.env.FIELD_ENCRYPTION_KEYS);
    const copy = await t.app.leadStore.consents.get(id);
    await archiveConsents(db, [copy!], { sealer, retentionDays: 1826 });
    await t.redis.del(t.app.leadStore.consents.key(id));

    const auth = { authorization: `Bearer ${TOKEN}` };
    const archived = await t.app.inject({ method: 'GET', url: `/api/v1/admin/consent/${id}`, headers: auth });
    expect(archived.statusCode).toBe(200);
    expect(archived.json()).toMatchObject({ leadId: id, contact: { email: 'archived.person@example.com' } });

    const erased = await t.app.inject({
      method: 'POST',
      url: '/api/v1/admin/deletion-requests',
      payload: { email: 'archived.person@example.com' },
      headers: auth,
    });
    expect(erased.json().leadsDeleted).toBe(1);
    expect(
      await db.selectFrom('consent_archive').select('lead_id').where('lead_id', '=', id).execute(),
    ).toEqual([]);
    const gone = await t.app.inject({ method: 'GET', url: `/api/v1/admin/consent/${id}`, headers: auth });
    expect(gone.statusCode).toBe(404);
  });

  it('refuses a bad range in the error shape', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/api/v1/admin/reports/funnel?from=2026-11-30&to=2026-11-01',
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.code).toBe('VALIDATION_FAILED');
  });

  it('names each missing or bad report filter in words an operator reads (issue 33)', async () => {
    const report = async (path: string) => {
      const response = await t.app.inject({
        method: 'GET',
        url: `/api/v1/admin/reports/${path}`,
        headers: { authorization: `Bearer ${TOKEN}` },
      });
      expect(response.statusCode, path).toBe(400);
      return response.json().error;
    };
    for (const name of ['funnel', 'sales', 'buyers']) {
      expect(await report(name)).toEqual({
        code: 'VALIDATION_FAILED',
        message: 'from is required: a date as YYYY-MM-DD.',
        fields: {
          from: 'from is required: a date as YYYY-MM-DD.',
          to: 'to is required: a date as YYYY-MM-DD.',
        },
        requestId: expect.any(String),
      });
    }
    expect((await report('funnel?from=11/10/2026&to=2026-11-10')).fields).toEqual({
      from: 'from must be a date as YYYY-MM-DD, such as 2026-11-10.',
    });
    expect(
      (await report('funnel?from=2026-11-10&to=2026-11-10&source=web&format=pdf&affiliate=%20')).fields,
    ).toEqual({
      source: 'source must be one of: funnel, partner.',
      format: 'format must be json or csv.',
      affiliate: 'affiliate must not be empty: leave it out to include every affiliate.',
    });
    expect((await report(`sales?from=2026-11-10&to=2026-11-10&utmSource=${'x'.repeat(129)}`)).fields).toEqual(
      {
        utmSource: 'utmSource must be at most 128 characters.',
      },
    );
  });
});
