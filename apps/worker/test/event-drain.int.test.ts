import { Redis } from 'ioredis';
import { sql } from 'kysely';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import type { LeadEvent } from '@funnel/contracts/lead-events';
import { migrate, openDatabase } from '@funnel/db/database';
import { getArchivedConsent, purgeExpiredConsents } from '@funnel/db/consent-archive';
import { EventOutbox, eventId } from '@funnel/lead-store/event-outbox';
import { dropSchema, testDatabaseUrl, testSchema } from '@funnel/testing/postgres';
import { deleteKeys, testKeyPrefix } from '@funnel/testing/redis-keys';
import { startEventDrainer } from '../src/system-of-record/event-drainer.js';
import { createOutcomeRecorder } from '../src/final-outcome/outcome-events.js';
import { Pipeline, startSandbox } from './pipeline-fixture.js';
import { until } from '@funnel/testing/until';

/** `n` leads' worth of events: created, two steps, submitted, sold. */
function events(n: number, offset = 0): LeadEvent[] {
  const at = new Date('2026-11-20T15:00:00Z').toISOString();
  return Array.from({ length: n }, (_, i) => {
    const leadId = `drain-lead-${String(offset + i).padStart(8, '0')}`;
    return [
      {
        eventId: eventId(leadId, 'created'),
        leadId,
        at,
        type: 'created',
        source: 'funnel',
        affiliate: 'aff-d',
      },
      { eventId: eventId(leadId, 'lgname', true), leadId, at, type: 'step_completed', step: 'lgname' },
      { eventId: eventId(leadId, 'email', true), leadId, at, type: 'step_completed', step: 'email' },
      { eventId: eventId(leadId, 'submitted'), leadId, at, type: 'submitted', source: 'funnel' },
      {
        eventId: eventId(leadId, 'outcome'),
        leadId,
        at,
        type: 'outcome',
        outcome: 'sold',
        secondsToDecision: 12,
      },
    ] satisfies LeadEvent[];
  }).flat();
}

describe('lead-event drain into PostgreSQL', () => {
  const schema = testSchema('drain');
  const keyPrefix = testKeyPrefix('drain');
  const redisUrl = inject('redisUrl');
  const redis = new Redis(redisUrl);
  const outbox = new EventOutbox(redis, { keyPrefix });
  const db = openDatabase({ url: testDatabaseUrl(), schema });
  const logger = pino({ level: 'silent' });

  beforeAll(async () => {
    await migrate(db, schema);
  });
  afterAll(async () => {
    await db.destroy();
    await dropSchema(schema);
    await deleteKeys(redis, keyPrefix);
    await redis.quit();
  });

  const count = async (table: 'lead_events' | 'lead_summary' | 'lead_steps') =>
    Number((await sql<{ n: string }>`select count(*) as n from ${sql.table(table)}`.execute(db)).rows[0]!.n);

  it('keeps every event in Redis while PostgreSQL is unreachable, then writes each exactly once', async () => {
    const first = events(100);
    await outbox.append(...first);

    // PostgreSQL "down": the drainer points at a port nobody listens on.
    const unreachable = openDatabase({ url: 'postgres://postgres@127.0.0.1:1/test', schema });
    const down = startEventDrainer({
      redis: new Redis(redisUrl, { maxRetriesPerRequest: null }),
      db: unreachable,
      streamKey: outbox.key,
      logger,
      batchSize: 64,
      retryMs: 100,
    });
    await new Promise((resolve) => setTimeout(resolve, 1500));
    // More traffic arrives meanwhile.
    const second = events(100, 100);
    await outbox.append(...second);
    await down.stop();
    await unreachable.destroy();
    expect(await redis.xlen(outbox.key)).toBe(first.length + second.length);
    expect(await count('lead_events')).toBe(0);

    // Back: a new drainer takes over what the first one read but never wrote.
    let written = 0;
    const up = startEventDrainer({
      redis: new Redis(redisUrl, { maxRetriesPerRequest: null }),
      db,
      streamKey: outbox.key,
      logger,
      batchSize: 64,
      onDrained: (n) => (written += n),
    });
    try {
      await until(
        'the events in PostgreSQL',
        async () => (await redis.xlen(outbox.key)) === 0 && (await count('lead_events')) === 1000,
        { timeoutMs: 40_000 },
      );
    } finally {
      await up.stop();
    }
    expect(written).toBe(1000);
    expect(await count('lead_events')).toBe(1000);
    expect(await count('lead_summary')).toBe(200);
    expect(await count('lead_steps')).toBe(400);
    const summary = await db
      .selectFrom('lead_summary')
      .selectAll()
      .where('lead_id', '=', 'drain-lead-00000150')
      .executeTakeFirstOrThrow();
    expect(summary).toMatchObject({
      source: 'funnel',
      affiliate: 'aff-d',
      outcome: 'sold',
      seconds_to_decision: 12,
    });
    expect(summary.submitted_at).toBeInstanceOf(Date);
  }, 60_000);
});

describe('final outcomes in the system of record', () => {
  it('records a sold lead once, with its lender host and seconds to decision, however often it settles', async () => {
    const sandbox = await startSandbox();
    const pipeline = new Pipeline();
    const outbox = new EventOutbox(pipeline.redis, { keyPrefix: pipeline.keyPrefix });
    const recordOutcome = createOutcomeRecorder({ store: pipeline.store, events: outbox });
    const worker = await pipeline.startWorker(sandbox.url, { alsoOnFinalOutcome: recordOutcome });
    try {
      await sandbox.configure({ soldShare: 1, pendingShare: 0 });
      const leadId = await pipeline.submitLead();
      const outcome = await pipeline.finalOutcome(leadId);
      expect(outcome.outcome).toBe('sold');
      await recordOutcome(leadId); // settled again: a retried job, the reconciler
      await until('two events in the outbox', async () => (await pipeline.redis.xlen(outbox.key)) >= 2);
      const entries = await pipeline.redis.xrange(outbox.key, '-', '+');
      const events = entries.map(([, fields]) => JSON.parse(fields[1]!) as Record<string, unknown>);
      expect(new Set(events.map((e) => e.eventId))).toEqual(new Set([`${leadId}.outcome`]));
      expect(events[0]).toMatchObject({
        type: 'outcome',
        outcome: 'sold',
        redirectHost: new URL(outcome.redirectUrl!).host,
      });
      expect(events[0]!.secondsToDecision).toBeGreaterThanOrEqual(0);
      expect(JSON.stringify(events)).not.toContain(outcome.redirectUrl!);
    } finally {
      await worker.close();
      await pipeline.close();
      await sandbox.process.stop();
    }
  }, 30_000);
});

describe('the consent archive', () => {
  it('archives a submitted lead’s consent with its contact sealed, drops the Redis copy, and keeps it for the retention period', async () => {
    const schema = testSchema('consent');
    const db = openDatabase({ url: testDatabaseUrl(), schema });
    const pipeline = new Pipeline();
    const outbox = new EventOutbox(pipeline.redis, { keyPrefix: pipeline.keyPrefix });
    // The worker's one key ring: it opens the lead store's sealed copy and seals the archived one.
    const sealer = pipeline.cipher;
    try {
      await migrate(db, schema);
      const leadId = 'consent-lead-000000001';
      await pipeline.store.retainConsent(
        {
          leadId,
          version: '2026-11',
          textSha256: 'a'.repeat(64),
          text: 'I agree.',
          button: 'REQUEST_FUNDS',
          at: '2026-11-20T15:00:00.000Z',
          ip: '203.0.113.9',
          userAgent: 'Mozilla/5.0',
          pageUrl: 'https://apply.example/ssn',
          contact: {
            firstName: 'Maria',
            lastName: 'Garcia',
            email: 'maria.garcia@example.com',
            phone: '5125550143',
          },
        },
        3600_000,
      );
      await outbox.append({
        eventId: eventId(leadId, 'submitted'),
        leadId,
        at: '2026-11-20T15:00:00.000Z',
        type: 'submitted',
        source: 'funnel',
      });
      const drainer = startEventDrainer({
        redis: new Redis(pipeline.redisUrl, { maxRetriesPerRequest: null }),
        db,
        streamKey: outbox.key,
        logger: pino({ level: 'silent' }),
        consents: { sealer, retentionDays: 1826, consentKey: (id) => pipeline.store.consents.key(id) },
      });
      try {
        await until(
          "the lead's consent copy to be removed",
          async () => (await pipeline.redis.exists(pipeline.store.consents.key(leadId))) === 0,
        );
      } finally {
        await drainer.stop();
      }
      const row = await db
        .selectFrom('consent_archive')
        .selectAll()
        .where('lead_id', '=', leadId)
        .executeTakeFirstOrThrow();
      expect(JSON.stringify(row)).not.toMatch(/maria|Garcia|5125550143|203\.0\.113\.9|Mozilla/i);
      expect(row.retained_until.toISOString()).toBe('2031-11-20T15:00:00.000Z');
      const archived = await getArchivedConsent(db, leadId, sealer);
      expect(archived).toMatchObject({
        leadId,
        text: 'I agree.',
        ip: '203.0.113.9',
        userAgent: 'Mozilla/5.0',
        contact: { email: 'maria.garcia@example.com' },
      });

      expect(await purgeExpiredConsents(db, new Date('2031-11-20T14:59:59Z'))).toBe(0);
      expect(await purgeExpiredConsents(db, new Date('2031-11-20T15:00:01Z'))).toBe(1);
      expect(await getArchivedConsent(db, leadId, sealer)).toBeUndefined();
    } finally {
      await db.destroy();
      await dropSchema(schema);
      await pipeline.close();
    }
  }, 30_000);
});
