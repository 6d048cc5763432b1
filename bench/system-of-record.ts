// The system of record (issue 10), two figures:
// - drain throughput: lead events drained from a Redis stream into PostgreSQL by the worker's drainer (events,
//   summaries, steps, acknowledgements), against a bare batched INSERT of the same event rows into a plain table,
//   in the same run and database (one array per column, as the drain writes them);
// - the 30-day funnel report for one affiliate over 1,000,000 events (the report reads the summary and steps the
//   drain keeps, never the events).
// Uses the machine's PostgreSQL (TEST_DATABASE_URL or 127.0.0.1:5432/test) in a schema of its own, dropped after.
// BENCH_SABOTAGE=system-of-record runs a bad system of record against the same baseline: the drainer takes one
// event per batch (a stream read, a transaction and an acknowledgement per event), and the report reads no kept
// summary or steps but derives both from the events at every query (`lead_summary` and `lead_steps` as views over
// `lead_events`, answering the same report). Both judged figures must fail: the drain ratio and the report's 1 s.
import { Redis } from 'ioredis';
import { sql, type Kysely } from 'kysely';
import { pino } from 'pino';
import type { LeadEvent } from '@funnel/contracts/lead-events';
import { ReportQuerySchema } from '@funnel/contracts/reports';
import { STEP_NAMES } from '@funnel/contracts/steps';
import { migrate, openDatabase, type Database } from '@funnel/db/database';
import { funnelReport } from '@funnel/db/reports';
import { EventOutbox, eventId } from '@funnel/lead-store/event-outbox';
import { dropSchema, testDatabaseUrl, testSchema } from '@funnel/testing/postgres';
import { startEventDrainer } from '../apps/worker/src/system-of-record/event-drainer.js';
import { rounds, sabotaged, smoke } from './lib/bench-options.js';
import { withServices } from './lib/processes.js';
import { report } from './lib/report.js';
import { startRedis } from './lib/services.js';
import { median } from './lib/stats.js';

const DRAIN_EVENTS = smoke ? 5_000 : 100_000;
const REPORT_LEADS = smoke ? 3_000 : 75_000;
const BATCH = 500;
const SABOTAGED = sabotaged('system-of-record');

/**
 * The bad product's report data: no summary or steps kept, both derived from the events whenever the report reads
 * them. The tables the drain keeps give way to views of the same names, so the product's report runs unchanged.
 */
async function summaryFromEvents(db: Kysely<Database>): Promise<void> {
  await sql`drop table lead_summary, lead_steps`.execute(db);
  await sql`
    create view lead_summary as
    select lead_id,
           min(at) filter (where type = 'created') as created_at,
           min(data->>'source') filter (where type = 'created') as source,
           min(data->>'affiliate') filter (where type = 'created') as affiliate,
           min(data->>'utmSource') filter (where type = 'created') as utm_source,
           min(at) filter (where type = 'submitted') as submitted_at,
           min(data->>'outcome') filter (where type = 'outcome') as outcome,
           min(data->>'reason') filter (where type = 'outcome') as outcome_reason
    from lead_events group by lead_id`.execute(db);
  await sql`
    create view lead_steps as
    select lead_id, data->>'step' as step, min(at) as completed_at
    from lead_events where type = 'step_completed' group by lead_id, data->>'step'`.execute(db);
}

function drainEvents(n: number, round: number): LeadEvent[] {
  const at = new Date('2026-11-20T15:00:00Z').toISOString();
  const events: LeadEvent[] = [];
  for (let i = 0; events.length < n; i++) {
    const leadId = `bench-${round}-${String(i).padStart(10, '0')}`;
    events.push(
      {
        eventId: eventId(leadId, 'created'),
        leadId,
        at,
        type: 'created',
        source: 'funnel',
        affiliate: `aff-${i % 20}`,
      },
      ...STEP_NAMES.slice(0, 3).map((step): LeadEvent => ({
        eventId: eventId(leadId, step, true),
        leadId,
        at,
        type: 'step_completed',
        step,
      })),
      { eventId: eventId(leadId, 'submitted'), leadId, at, type: 'submitted', source: 'funnel' },
    );
  }
  return events.slice(0, n);
}

await withServices(async (track) => {
  const redisService = track(await startRedis());
  const schema = testSchema('bench_sor');
  const db = openDatabase({ url: testDatabaseUrl(), schema, max: 4 });
  const redis = new Redis(redisService.url);
  try {
    await migrate(db, schema);
    await sql`create table bare_events (event_id text primary key, lead_id text not null, type text not null, at timestamptz not null, data jsonb not null)`.execute(
      db,
    );

    const drained: number[] = [];
    const bare: number[] = [];
    for (let round = 0; round < rounds; round++) {
      const events = drainEvents(DRAIN_EVENTS, round);
      // Product: the events wait in the stream, then the worker's drainer writes them all.
      const outbox = new EventOutbox(redis, { keyPrefix: `bench${round}:` });
      for (let i = 0; i < events.length; i += 5_000) await outbox.append(...events.slice(i, i + 5_000));
      const started = performance.now();
      const drainer = startEventDrainer({
        redis: new Redis(redisService.url, { maxRetriesPerRequest: null }),
        db,
        streamKey: outbox.key,
        logger: pino({ level: 'warn' }),
        batchSize: SABOTAGED ? 1 : BATCH,
      });
      while ((await redis.xlen(outbox.key)) > 0) await new Promise((resolve) => setTimeout(resolve, 20));
      drained.push(events.length / ((performance.now() - started) / 1000));
      await drainer.stop();

      // Baseline: the same rows, inserted in batches of the same size into a table with nothing else to do, as
      // one array per column (the shape the drain writes). A VALUES row per event is measured too, for the record.
      const rows = (suffix: string) =>
        events.map(({ eventId: id, leadId, type, at, ...data }) => ({
          event_id: `${id}.${suffix}`,
          lead_id: leadId,
          type,
          at: new Date(at),
          data: JSON.stringify(data),
        }));
      const valuesRows = rows('values');
      const valuesStarted = performance.now();
      for (let i = 0; i < valuesRows.length; i += BATCH) {
        await db
          .insertInto('bare_events' as never)
          .values(valuesRows.slice(i, i + BATCH) as never)
          .execute();
      }
      const valuesRate = events.length / ((performance.now() - valuesStarted) / 1000);
      const arrayRows = rows('unnest');
      const arraysStarted = performance.now();
      for (let i = 0; i < arrayRows.length; i += BATCH) {
        const batch = arrayRows.slice(i, i + BATCH);
        await sql`
          insert into bare_events (event_id, lead_id, type, at, data)
          select * from unnest(${batch.map((r) => r.event_id)}::text[], ${batch.map((r) => r.lead_id)}::text[],
                               ${batch.map((r) => r.type)}::text[], ${batch.map((r) => r.at)}::timestamptz[],
                               ${batch.map((r) => r.data)}::jsonb[])`.execute(db);
      }
      const arraysRate = events.length / ((performance.now() - arraysStarted) / 1000);
      console.log(
        `  round ${round + 1}: drain ${Math.round(drained.at(-1)!)}, VALUES ${Math.round(valuesRate)}, ` +
          `unnest ${Math.round(arraysRate)} events/s`,
      );
      bare.push(arraysRate);
    }
    const ratio = median(drained) / median(bare);
    report({
      measure: `drain throughput, ${DRAIN_EVENTS.toLocaleString('en-US')} events from Redis into PostgreSQL`,
      product: `${Math.round(median(drained)).toLocaleString('en-US')} events/s`,
      baseline: `${Math.round(median(bare)).toLocaleString('en-US')} events/s (bare batched INSERT of arrays, same rows)`,
      ratio: `${ratio.toFixed(2)}×`,
      goals: [{ measured: ratio, op: '>=', limit: 0.5, unit: '×' }],
    });

    // The report's data: leads over 30 days and 20 affiliates, each created, part of the way through the steps,
    // some submitted and decided. Written with set-based SQL (what the drain would have written), events too, each
    // with the fields the drain would have kept in its data.
    await sql`truncate lead_events, lead_summary, lead_steps`.execute(db);
    await sql`
      insert into lead_summary (lead_id, created_at, source, affiliate, utm_source, amount, submitted_at, outcome,
                                decided_at, seconds_to_decision)
      select 'r' || g, timestamptz '2026-10-01 12:00:00+00' + (g % 30) * interval '1 day' + (g % 600) * interval '1 minute',
             case when g % 5 = 0 then 'partner' else 'funnel' end, 'aff-' || (g % 20), 'utm-' || (g % 7), 500,
             case when g % 3 = 0 then timestamptz '2026-10-01 12:30:00+00' + (g % 30) * interval '1 day' end,
             case when g % 3 = 0 then (array['sold','rejected','no_lender'])[1 + (g / 3) % 3] end,
             case when g % 3 = 0 then timestamptz '2026-10-01 12:31:00+00' + (g % 30) * interval '1 day' end,
             case when g % 3 = 0 then 5 + g % 120 end
      from generate_series(1, ${REPORT_LEADS}) g`.execute(db);
    await sql`
      insert into lead_steps (lead_id, step, completed_at)
      select s.lead_id, (${sql.raw(`array[${STEP_NAMES.map((n) => `'${n}'`).join(',')}]`)})[i], s.created_at
      from lead_summary s, generate_series(1, ${STEP_NAMES.length}) i
      where i <= 1 + (hashtext(s.lead_id) & 65535) % ${STEP_NAMES.length}`.execute(db);
    await sql`
      insert into lead_events (event_id, lead_id, type, at, data)
      select lead_id || '.created', lead_id, 'created', created_at,
             jsonb_build_object('source', source, 'affiliate', affiliate, 'utmSource', utm_source, 'amount', amount)
      from lead_summary
      union all
      select lead_id || '.' || step, lead_id, 'step_completed', completed_at, jsonb_build_object('step', step)
      from lead_steps
      union all
      select lead_id || '.submitted', lead_id, 'submitted', submitted_at, jsonb_build_object('source', source)
      from lead_summary
      where submitted_at is not null
      union all
      select lead_id || '.outcome', lead_id, 'outcome', decided_at,
             jsonb_build_object('outcome', outcome, 'secondsToDecision', seconds_to_decision)
      from lead_summary
      where decided_at is not null`.execute(db);
    await sql`analyze`.execute(db);
    const eventCount = Number(
      (await sql<{ n: string }>`select count(*) as n from lead_events`.execute(db)).rows[0]!.n,
    );

    const query = ReportQuerySchema.parse({ from: '2026-10-01', to: '2026-10-30', affiliate: 'aff-7' });
    const kept = await funnelReport(db, query, 'America/New_York');
    if (SABOTAGED) {
      await summaryFromEvents(db);
      const derived = await funnelReport(db, query, 'America/New_York');
      if (JSON.stringify(derived) !== JSON.stringify(kept))
        throw new Error('the report derived from the events differs from the one the drain keeps');
    }
    const times: number[] = [];
    for (let i = 0; i < 5; i++) {
      const started = performance.now();
      await funnelReport(db, query, 'America/New_York');
      times.push(performance.now() - started);
    }
    const ms = median(times);
    report({
      measure: `30-day funnel report for one affiliate, ${eventCount.toLocaleString('en-US')} events (median of 5)`,
      product: `${ms.toFixed(0)} ms`,
      baseline: '–',
      goals: [
        { measured: ms, op: '<=', limit: 1000, unit: ' ms' },
        { of: 'events', measured: eventCount, op: '>=', limit: 1_000_000 },
      ],
    });
  } finally {
    await redis.quit();
    await db.destroy();
    await dropSchema(schema);
  }
});
