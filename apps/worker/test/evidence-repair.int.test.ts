import { randomBytes } from 'node:crypto';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type {} from '@funnel/testing/services-global-setup';
import { JOBS, queuePrefix } from '@funnel/contracts/jobs';
import { getArchivedConsent } from '@funnel/db/consent-archive';
import { migrate, openDatabase, type Database } from '@funnel/db/database';
import { leadsMissingEvidence } from '@funnel/db/evidence-gaps';
import { EventOutbox, eventId } from '@funnel/lead-store/event-outbox';
import { FieldCipher } from '@funnel/lead-store/field-cipher';
import { LeadStore, META } from '@funnel/lead-store/lead-store';
import { dropSchema, testDatabaseUrl, testSchema } from '@funnel/testing/postgres';
import { deleteKeys, testKeyPrefix } from '@funnel/testing/redis-keys';
import type { Kysely } from 'kysely';
import { createReconciler, type RepairKind } from '../src/reconciler/reconciler.js';
import { startEventDrainer } from '../src/system-of-record/event-drainer.js';
import { SAMPLE_CONSENT } from './pipeline-fixture.js';

const DAY_MS = 24 * 3600_000;
const RETENTION_DAYS = 1826;

/**
 * A lead sold whose submitting request died after the submission script of an earlier version: the lead is
 * submitted and decided in Redis, its consent record only on the lead (which expires with it), and the system of
 * record has its outcome but no `submitted` event and no archived consent.
 */
describe('the reconciler completes the evidence of decided leads that went without it', () => {
  const keyPrefix = testKeyPrefix('evidence-repair');
  const schema = testSchema('evidence_repair');
  const cipher = new FieldCipher([{ id: 'k1', key: randomBytes(32) }]);
  let redis: Redis;
  let store: LeadStore;
  let outbox: EventOutbox;
  let queue: Queue;
  let db: Kysely<Database>;
  let drainer: { stop(): Promise<void> };

  beforeAll(async () => {
    redis = new Redis(inject('redisUrl'), { maxRetriesPerRequest: null });
    store = new LeadStore(redis, cipher, { keyPrefix, ttlMs: 600_000 });
    outbox = new EventOutbox(redis, { keyPrefix });
    queue = new Queue(JOBS.submitLead.queue, { connection: redis, prefix: queuePrefix(keyPrefix) });
    db = openDatabase({ url: testDatabaseUrl(), schema });
    await migrate(db, schema);
    drainer = startEventDrainer({
      redis: new Redis(inject('redisUrl'), { maxRetriesPerRequest: null }),
      db,
      streamKey: outbox.key,
      logger: pino({ level: 'silent' }),
      consents: { sealer: cipher, retentionDays: RETENTION_DAYS, consentKey: (id) => store.consents.key(id) },
    });
  });
  afterAll(async () => {
    await drainer.stop();
    await queue.close();
    await db.destroy();
    await dropSchema(schema);
    await deleteKeys(redis, keyPrefix);
    await redis.quit();
  });

  /** Polls `probe` until it holds (the drainer writes PostgreSQL on its own time). */
  async function until(probe: () => Promise<boolean>): Promise<void> {
    for (let i = 0; i < 200 && !(await probe()); i += 1) await new Promise((r) => setTimeout(r, 50));
  }

  async function soldWithoutEvidence(): Promise<string> {
    const id = await store.create({ first_name: 'Maria', email: 'maria.garcia@example.com' });
    const submittedAt = new Date(Date.now() - 60_000).toISOString();
    await redis.hset(
      store.key(id),
      META.submission,
      JSON.stringify({ submittedAt, deadlineAt: new Date(Date.now() + 60_000).toISOString() }),
      META.consent,
      JSON.stringify({ ...SAMPLE_CONSENT, at: submittedAt }),
    );
    await store.setOutcome(id, { outcome: 'sold', redirectUrl: 'https://lender.example/offer/1' });
    await outbox.append({
      eventId: eventId(id, 'outcome'),
      leadId: id,
      at: new Date().toISOString(),
      type: 'outcome',
      outcome: 'sold',
    });
    await until(async () => (await leadsMissingEvidence(db, { since: new Date(0), limit: 10 })).includes(id));
    return id;
  }

  it('writes the submitted event and the archived consent once, each repair counted', async () => {
    const id = await soldWithoutEvidence();
    const repairs: RepairKind[] = [];
    const reconcile = createReconciler({
      store,
      redis,
      keyPrefix,
      submissionQueue: queue,
      outboxAgeMs: 5000,
      deadlineGraceMs: 30_000,
      now: Date.now,
      logger: pino({ level: 'silent' }),
      onFinalOutcome: async () => undefined,
      onRepair: (kind) => repairs.push(kind),
      evidence: {
        missing: () => leadsMissingEvidence(db, { since: new Date(Date.now() - DAY_MS), limit: 200 }),
        policy: { retentionMs: RETENTION_DAYS * DAY_MS, withEvents: true },
      },
    });

    await reconcile();
    expect(repairs).toEqual(['evidence_completed']);
    await until(async () => (await leadsMissingEvidence(db, { since: new Date(0), limit: 10 })).length === 0);
    const submitted = await db
      .selectFrom('lead_events')
      .select(['event_id', 'at'])
      .where('lead_id', '=', id)
      .where('type', '=', 'submitted')
      .execute();
    expect(submitted).toHaveLength(1);
    const archived = await db
      .selectFrom('consent_archive')
      .select(['consented_at', 'retained_until'])
      .where('lead_id', '=', id)
      .executeTakeFirstOrThrow();
    expect(archived.retained_until.getTime() - archived.consented_at.getTime()).toBe(RETENTION_DAYS * DAY_MS);
    expect(await getArchivedConsent(db, id, cipher)).toMatchObject({
      leadId: id,
      contact: { firstName: 'Maria', email: 'maria.garcia@example.com' },
    });
    const summary = await db
      .selectFrom('lead_summary')
      .select(['outcome', 'source'])
      .where('lead_id', '=', id)
      .executeTakeFirstOrThrow();
    expect(summary).toEqual({ outcome: 'sold', source: 'funnel' });

    // Nothing left to repair: a second pass writes nothing and counts nothing.
    await reconcile();
    expect(repairs).toEqual(['evidence_completed']);
    expect(await redis.xlen(outbox.key)).toBe(0);
  });
});
