import { randomBytes } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate, openDatabase, type Database } from '@funnel/db/database';
import { dropSchema, testDatabaseUrl, testSchema } from '@funnel/testing/postgres';
import { startReplicaPair, type ReplicaPair } from '@funnel/testing/processes';
import { SUBMIT, answeredLead } from './complete-lead.js';
import { FUNNEL_NOW, STEP_ANSWERS } from './funnel-answers.js';
import { partnerKey } from './partner-keys.js';
import { startTestApp, type TestApp } from './test-app.js';

// docs/adr/0026: a submit whose first request died after the submission was recorded (here: the replica's WAIT
// refused, so the request answered 503 after the script) leaves the lead with its evidence all the same, and the
// retry neither loses nor repeats it: one `submitted` event for the system of record, one consent copy kept for
// CONSENT_RETENTION_DAYS (from which the worker archives it in PostgreSQL as it drains the event).

const ACME = partnerKey('acme', 'aff-acme', 1000);
const DAY_MS = 24 * 3600_000;

describe('the evidence of a submission whose first request died after it was recorded', () => {
  const schema = testSchema('bffevidence');
  const url = `${testDatabaseUrl()}?options=${encodeURIComponent(`-c search_path=${schema}`)}`;
  let db: Kysely<Database>;
  let pair: ReplicaPair;
  let t: TestApp;

  beforeAll(async () => {
    db = openDatabase({ url: testDatabaseUrl(), schema });
    await migrate(db, schema);
    pair = await startReplicaPair();
    t = await startTestApp({
      now: () => FUNNEL_NOW,
      env: {
        REDIS_URL: pair.primary.url,
        REDIS_WAIT_REPLICAS: '1',
        REDIS_WAIT_TIMEOUT_MS: '300',
        PARTNER_API_KEYS: ACME.entry,
        DATABASE_URL: url,
      },
    });
  });
  afterAll(async () => {
    await t?.close();
    await pair?.stop();
    await db?.destroy();
    await dropSchema(schema);
  });

  /** The lead's events on the stream the worker drains into PostgreSQL, by type. */
  const eventsOf = async (leadId: string) =>
    (await t.redis.xrange(`${t.env.REDIS_KEY_PREFIX}lead-events`, '-', '+'))
      .map(([, fields]) => JSON.parse(fields[1]!) as { leadId: string; type: string })
      .filter((event) => event.leadId === leadId)
      .map((event) => event.type);
  const consentKey = (leadId: string) => `${t.env.REDIS_KEY_PREFIX}consent:${leadId}`;

  /** `send` with the replica gone (answered 503), then again once it is back, until it is accepted. */
  async function diesThenRetried(send: () => Promise<LightMyRequestResponse>) {
    await pair.replica.kill();
    const refused = await send();
    expect(refused.statusCode).toBe(503);
    await pair.replica.start();
    await pair.synced();
    // A client sends again on a 503, as it is told to, until the replica confirms in time.
    const sendUntilAccepted = async () => {
      let answer = await send();
      for (let i = 0; answer.statusCode === 503 && i < 40; i += 1) {
        await new Promise((r) => setTimeout(r, 250));
        answer = await send();
      }
      return answer;
    };
    const retried = await sendUntilAccepted();
    expect(retried.statusCode).toBe(202);
    // And once more, as a double click would: nothing is written twice.
    expect((await sendUntilAccepted()).statusCode).toBe(202);
    return retried;
  }

  it('a funnel lead: its retry answers with one submitted event and the consent kept for the retention period', async () => {
    const { cookie, id } = await answeredLead(t.app);
    const submit = () =>
      t.app.inject({ method: 'POST', url: '/api/v1/lead/submit', payload: SUBMIT, headers: { cookie } });
    await diesThenRetried(submit);

    expect((await eventsOf(id)).filter((type) => type === 'submitted')).toEqual(['submitted']);
    expect(await t.redis.exists(consentKey(id))).toBe(1);
    expect(await t.redis.pttl(consentKey(id))).toBeGreaterThan((t.env.CONSENT_RETENTION_DAYS - 1) * DAY_MS);
    // On the replica too: it outlives a failover.
    expect(await pair.onReplica.exists(consentKey(id))).toBe(1);
    expect(await t.app.submissionQueue.getJob(id)).toBeDefined();
  }, 40_000);

  it('a partner lead: its replay answers with its creation and submission events once, and its consent kept', async () => {
    const key = `order-${randomBytes(6).toString('hex')}`;
    const body = {
      amount: 1000,
      loanReason: 'MEDICAL',
      ...Object.assign({}, ...STEP_ANSWERS.map(([, answer]) => answer)),
      email: `evidence.${randomBytes(4).toString('hex')}@example.com`,
      consent: {
        button: 'REQUEST_CASH',
        at: '2026-11-17T14:58:00Z',
        ip: '203.0.113.45',
        userAgent: 'Mozilla/5.0 (partner borrower)',
        pageUrl: 'https://loans.partner.example/apply',
      },
    };
    const post = () =>
      t.app.inject({
        method: 'POST',
        url: '/api/v1/partner/leads',
        payload: body,
        headers: { authorization: `Bearer ${ACME.key}`, 'idempotency-key': key },
      });
    const accepted = await diesThenRetried(post);
    const id = accepted.json().leadId as string;

    const events = await eventsOf(id);
    expect(events.filter((type) => type === 'created' || type === 'submitted')).toEqual([
      'created',
      'submitted',
    ]);
    expect(await t.redis.pttl(consentKey(id))).toBeGreaterThan((t.env.CONSENT_RETENTION_DAYS - 1) * DAY_MS);
  }, 40_000);
});
