import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql, type Kysely } from 'kysely';
import type { LeadEvent } from '@funnel/contracts/lead-events';
import { ReportQuerySchema } from '@funnel/contracts/reports';
import { STEP_NAMES } from '@funnel/contracts/steps';
import { migrate, openDatabase, type Database } from './database.js';
import { startPgliteServer, type PgliteServer } from './pglite-server.js';
import { recordEvents } from './record-events.js';
import { funnelReport, salesReport } from './reports.js';

const TZ = 'America/New_York';

/** A lead created at noon New York time on 2026-11-10 that completes `steps` steps, then what followed. */
function lead(n: number, steps: number, outcome?: { outcome: 'sold' | 'rejected'; seconds: number }) {
  const leadId = `lead-pglite-fixture-${n}`;
  const at = (minutes: number) =>
    new Date(Date.parse('2026-11-10T17:00:00Z') + minutes * 60_000).toISOString();
  const events: LeadEvent[] = [
    {
      eventId: `${leadId}.created`,
      leadId,
      at: at(0),
      type: 'created',
      source: 'funnel',
      affiliate: 'aff-p',
    },
    ...STEP_NAMES.slice(0, steps).map((step, i): LeadEvent => ({
      eventId: `${leadId}.${step}`,
      leadId,
      at: at(i + 1),
      type: 'step_completed',
      step,
    })),
  ];
  if (outcome) {
    events.push(
      { eventId: `${leadId}.submitted`, leadId, at: at(30), type: 'submitted', source: 'funnel' },
      {
        eventId: `${leadId}.outcome`,
        leadId,
        at: at(31),
        type: 'outcome',
        outcome: outcome.outcome,
        secondsToDecision: outcome.seconds,
      },
    );
  }
  return events;
}

/** Three leads: one stops after 2 steps, one is sold after 30 s, one rejected after 90 s. */
const FIXTURE = [
  ...lead(1, 2),
  ...lead(2, STEP_NAMES.length, { outcome: 'sold', seconds: 30 }),
  ...lead(3, STEP_NAMES.length, { outcome: 'rejected', seconds: 90 }),
];

describe('the embedded default: PGlite over the wire protocol', () => {
  let server: PgliteServer;
  let bff: Kysely<Database>;
  let worker: Kysely<Database>;

  beforeAll(async () => {
    server = await startPgliteServer();
    // Two pools, as the BFF and the worker have, on the one PGlite session.
    bff = openDatabase({ url: server.url, max: 3 });
    worker = openDatabase({ url: server.url, max: 3 });
    expect(await migrate(worker)).toEqual(
      expect.arrayContaining([
        '0001_lead_events_and_summary',
        '0002_consent_archive',
        '0003_privacy_requests',
      ]),
    );
    expect(await migrate(worker)).toEqual([]);
  }, 60_000);
  afterAll(async () => {
    await bff?.destroy();
    await worker?.destroy();
    await server?.stop();
  });

  it('runs the real drain and reports on the migrated schema', async () => {
    expect(await recordEvents(worker, FIXTURE)).toBe(FIXTURE.length);
    expect(await recordEvents(worker, FIXTURE)).toBe(0);
    const query = ReportQuerySchema.parse({ from: '2026-11-10', to: '2026-11-10' });
    const funnel = await funnelReport(bff, query, TZ);
    expect(funnel.outcomes).toEqual({ created: 3, submitted: 2, sold: 1, rejected: 1, noLender: 0 });
    expect(funnel.steps.find((row) => row.step === STEP_NAMES[2])).toMatchObject({
      reached: 3,
      completed: 2,
    });
    const sales = await salesReport(bff, query, TZ);
    expect(sales.rows).toEqual([
      {
        day: '2026-11-10',
        affiliate: 'aff-p',
        submitted: 2,
        sold: 1,
        soldRate: 0.5,
        medianSecondsToDecision: 60,
        p90SecondsToDecision: 84,
      },
    ]);
  });

  it('keeps each connection’s statements and transactions its own when both apps query at once', async () => {
    const echo = async (db: Kysely<Database>, base: number) => {
      for (let i = 0; i < 40; i++) {
        const row = await db
          .selectFrom('lead_summary')
          .select((eb) => [eb.val(base + i).as('n'), eb.val(`v${base + i}`).as('v')])
          .limit(1)
          .executeTakeFirstOrThrow();
        expect(row).toEqual({ n: String(base + i), v: `v${base + i}` });
      }
    };
    const batches = Array.from({ length: 10 }, (_, b) =>
      Array.from({ length: 5 }, (_, i) => lead(100 + b * 5 + i, 1)).flat(),
    );
    const written = await Promise.all([
      echo(bff, 0),
      echo(bff, 1000),
      ...batches.map((batch) => recordEvents(worker, batch)),
      echo(worker, 2000),
    ]);
    expect(written.filter((n) => typeof n === 'number').reduce((a, b) => a + (b as number), 0)).toBe(100);
    const { n } = await bff
      .selectFrom('lead_summary')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(n)).toBe(53);
  });

  it('gives each connection the search_path its startup options ask for, as a server does', async () => {
    // Two test files at once, each in a schema of its own: the same tables, migrated and written in both.
    const [a, b] = ['t_pglite_a', 't_pglite_b'].map((schema) => ({
      schema,
      db: openDatabase({ url: server.url, schema, max: 2 }),
    }));
    try {
      await Promise.all([migrate(a!.db, a!.schema), migrate(b!.db, b!.schema)]);
      await Promise.all([recordEvents(a!.db, lead(700, 1)), recordEvents(b!.db, lead(800, 3))]);
      const steps = async (db: Kysely<Database>) =>
        (await db.selectFrom('lead_steps').select('lead_id').execute()).map((r) => r.lead_id);
      const [inA, inB] = await Promise.all([steps(a!.db), steps(b!.db)]);
      expect(inA).toEqual(['lead-pglite-fixture-700']);
      expect(inB).toEqual(Array(3).fill('lead-pglite-fixture-800'));
      // A connection without options keeps the default search_path, where neither schema's rows are.
      const { rows } = await sql<{ search_path: string }>`show search_path`.execute(bff);
      expect(rows[0]!.search_path).toBe('public');
      expect((await steps(bff)).filter((id) => /-(700|800)$/.test(id))).toEqual([]);
    } finally {
      for (const { schema, db } of [a!, b!]) {
        await sql`drop schema ${sql.id(schema)} cascade`.execute(db);
        await db.destroy();
      }
    }
  });

  it('keeps its data in the data directory across restarts', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'pglite-'));
    try {
      const first = await startPgliteServer({ dataDir });
      const before = openDatabase({ url: first.url, max: 1 });
      await migrate(before);
      await recordEvents(before, lead(900, 2));
      await before.destroy();
      await first.stop();

      const second = await startPgliteServer({ dataDir });
      const after = openDatabase({ url: second.url, max: 1 });
      expect(await migrate(after)).toEqual([]);
      const rows = await after.selectFrom('lead_steps').select('step').orderBy('step').execute();
      expect(rows.map((r) => r.step)).toEqual(STEP_NAMES.slice(0, 2).toSorted());
      await after.destroy();
      await second.stop();
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});
