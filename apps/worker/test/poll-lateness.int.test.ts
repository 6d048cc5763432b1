import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Histogram } from 'prom-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BuiltWorker } from '../src/build-worker.js';
import { LENDER_NETWORK } from '../src/submission/submit-lead-processor.js';
import { Pipeline, startSandbox } from './pipeline-fixture.js';
import { startBuyersSandbox } from './waterfall-fixture.js';
import { until } from '@funnel/testing/until';

/** Observations summed over the workers: how many in all, and how many at most `le` seconds. */
async function observed(workers: BuiltWorker[], pick: (worker: BuiltWorker) => Histogram, labels = {}) {
  const buckets = new Map<string, number>();
  let count = 0;
  for (const worker of workers) {
    for (const value of (await pick(worker).get()).values) {
      const own = Object.entries(labels).every(([k, v]) => value.labels[k] === v);
      if (!own) continue;
      if (value.metricName?.endsWith('_count')) count += value.value;
      if (value.metricName?.endsWith('_bucket')) {
        const le = String(value.labels.le);
        buckets.set(le, (buckets.get(le) ?? 0) + value.value);
      }
    }
  }
  return { count, atMost: (le: number) => buckets.get(String(le)) ?? 0 };
}

const lateness = (workers: BuiltWorker[]) => observed(workers, (w) => w.metrics.pollLateness);

describe('poll lateness with two workers on the lender network', () => {
  let sandbox: Awaited<ReturnType<typeof startSandbox>>;
  let pipeline: Pipeline;
  let workers: BuiltWorker[];

  beforeAll(async () => {
    sandbox = await startSandbox();
    pipeline = new Pipeline();
    workers = [await pipeline.startWorker(sandbox.url), await pipeline.startWorker(sandbox.url)];
  });
  afterAll(async () => {
    await Promise.all(workers.map((w) => w.close()));
    await pipeline.close();
    await sandbox.process.stop();
  });

  it('measures every poll from the due time stored with its job, whichever worker runs it', async () => {
    await sandbox.reset();
    await sandbox.configure({ soldShare: 1, pendingShare: 1, pendingMinMs: 1200, pendingMaxMs: 1200 });
    const ids = await Promise.all(Array.from({ length: 12 }, () => pipeline.submitLead()));
    for (const id of ids) expect((await pipeline.finalOutcome(id)).outcome).toBe('sold');

    const polls = await lateness(workers);
    const perWorker = await Promise.all(workers.map((w) => lateness([w])));
    // Every ping the lender saw was a parked poll, measured once, by the worker that ran it: both did.
    expect(polls.count).toBe((await sandbox.stats()).pings);
    // At least one parked poll per lead: how many more depends on how busy the machine is, not on the code.
    expect(polls.count).toBeGreaterThanOrEqual(ids.length);
    for (const own of perWorker) expect(own.count).toBeGreaterThan(0);
    // On time: nothing near the 2–30 s buckets a per-process schedule used to fill.
    expect(polls.atMost(1)).toBe(polls.count);

    // Each lead's deciding answer is timed to its stored and published outcome exactly once.
    const decisions = await observed(workers, (w) => w.metrics.buyerDecisionToOutcome, {
      buyer: LENDER_NETWORK,
    });
    expect(decisions.count).toBe(ids.length);
    expect(decisions.atMost(1)).toBe(ids.length);
  });

  it('shows the real lateness of polls held up while nobody could run them', async () => {
    await sandbox.reset();
    await sandbox.configure({ soldShare: 1, pendingShare: 1, pendingMinMs: 3000, pendingMaxMs: 3000 });
    const before = await lateness(workers);
    const ids = await Promise.all(Array.from({ length: 6 }, () => pipeline.submitLead()));
    // Every lead posted and parked on its next poll, then the queue stalls for two seconds.
    await until(
      'the sandbox to be pinged for every lead',
      async () => (await sandbox.stats()).pings >= ids.length,
      { intervalMs: 20 },
    );
    await pipeline.queue.pause();
    await new Promise((r) => setTimeout(r, 2000));
    await pipeline.queue.resume();
    for (const id of ids) expect((await pipeline.finalOutcome(id)).outcome).toBe('sold');

    const after = await lateness(workers);
    const late = after.count - after.atMost(1) - (before.count - before.atMost(1));
    expect(late).toBeGreaterThanOrEqual(ids.length);
    expect(after.atMost(5)).toBe(after.count);
  });
});

describe('poll lateness in the buyers waterfall', () => {
  let sandbox: Awaited<ReturnType<typeof startBuyersSandbox>>;
  let pipeline: Pipeline;
  let workers: BuiltWorker[];

  beforeAll(async () => {
    sandbox = await startBuyersSandbox([
      {
        id: 'pending-buyer',
        protocol: 'lead-service',
        seed: 7,
        soldShare: 1,
        pendingShare: 1,
        pendingMinMs: 1000,
        pendingMaxMs: 1000,
        latencyMinMs: 0,
        latencyMaxMs: 0,
      },
    ]);
    const file = join(mkdtempSync(join(tmpdir(), 'buyers-')), 'buyers.json');
    writeFileSync(
      file,
      JSON.stringify({
        timeZone: 'America/Chicago',
        buyers: [
          {
            id: 'pending-buyer',
            protocol: 'lead-service',
            baseUrl: sandbox.buyerUrl('pending-buyer'),
            tier: 1,
            timeouts: { pollMs: 150 },
          },
        ],
      }),
    );
    pipeline = new Pipeline();
    const env = { BUYERS_FILE: file };
    workers = [
      await pipeline.startWorker(sandbox.url, { env }),
      await pipeline.startWorker(sandbox.url, { env }),
    ];
  });
  afterAll(async () => {
    await Promise.all(workers.map((w) => w.close()));
    await pipeline.close();
    await sandbox.process.stop();
  });

  it("measures the walk's pending waits and each buyer's decision → outcome", async () => {
    const ids = await Promise.all(Array.from({ length: 8 }, () => pipeline.submitLead()));
    for (const id of ids) expect((await pipeline.finalOutcome(id)).outcome).toBe('sold');

    const polls = await lateness(workers);
    // About 1 s pending at a 150 ms cadence: several parked pings per lead, all on time.
    expect(polls.count).toBeGreaterThanOrEqual(ids.length * 3);
    expect(polls.atMost(1)).toBe(polls.count);
    const decisions = await observed(workers, (w) => w.metrics.buyerDecisionToOutcome, {
      buyer: 'pending-buyer',
    });
    expect(decisions.count).toBe(ids.length);
    expect(decisions.atMost(1)).toBe(ids.length);
  });
});
