import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { Kysely } from 'kysely';
import type { LeadEvent } from '@funnel/contracts/lead-events';
import { ReportQuerySchema } from '@funnel/contracts/reports';
import { STEP_NAMES, type StepName } from '@funnel/contracts/steps';
import { dropSchema, testDatabaseUrl, testSchema } from '@funnel/testing/postgres';
import { migrate, openDatabase, type Database } from './database.js';
import { recordEvents } from './record-events.js';
import { funnelReport } from './reports.js';

const DAY = '2026-12-02';

/** A lead of run `run` (its own affiliate) that saved `steps` in that order, a minute apart. */
function leadEvents(run: number, n: number, steps: readonly StepName[]): LeadEvent[] {
  const leadId = `lead-property-${run}-${n}`;
  const at = (minutes: number) => new Date(Date.parse(`${DAY}T17:00:00Z`) + minutes * 60_000).toISOString();
  return [
    {
      eventId: `${leadId}.created`,
      leadId,
      at: at(0),
      type: 'created',
      source: 'partner',
      affiliate: `aff-p${run}`,
    },
    ...steps.map((step, i): LeadEvent => ({
      eventId: `${leadId}.${step}`,
      leadId,
      at: at(i + 1),
      type: 'step_completed',
      step,
    })),
  ];
}

/** Any subset of the steps, in any order: what API clients that skip or reorder screens could leave behind. */
const savedSteps = fc
  .subarray([...STEP_NAMES])
  .chain((steps) => fc.shuffledSubarray(steps, { minLength: steps.length }));

describe('the funnel report, with steps saved in any order (issue 33, point 4)', () => {
  const schema = testSchema('reports_property');
  let db: Kysely<Database>;
  let run = 0;

  beforeAll(async () => {
    db = openDatabase({ url: testDatabaseUrl(), schema });
    await migrate(db, schema);
  });
  afterAll(async () => {
    await db.destroy();
    await dropSchema(schema);
  });

  it('never has more leads completing a step than reaching it, nor a negative drop-off', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(savedSteps, { minLength: 1, maxLength: 6 }), async (leads) => {
        run += 1;
        const events = leads.flatMap((steps, n) => leadEvents(run, n, steps));
        await recordEvents(db, events);
        const report = await funnelReport(
          db,
          ReportQuerySchema.parse({ from: DAY, to: DAY, affiliate: `aff-p${run}` }),
          'America/New_York',
        );
        let previousReached = Infinity;
        for (const row of report.steps) {
          expect(row.completed, row.step).toBeLessThanOrEqual(row.reached);
          expect(row.dropOff, row.step).toBe(row.reached - row.completed);
          expect(row.reached, row.step).toBeLessThanOrEqual(previousReached);
          previousReached = row.reached;
        }
        // Every lead reached the landing and the first step; a step's completions are exactly its savers.
        expect(report.steps[0]).toMatchObject({ step: 'landing', reached: leads.length });
        for (const row of report.steps.slice(1)) {
          expect(row.completed, row.step).toBe(
            leads.filter((steps) => steps.includes(row.step as StepName)).length,
          );
        }
      }),
      { numRuns: 40 },
    );
  });
});
