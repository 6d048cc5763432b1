import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BuyerInput } from '@funnel/contracts/buyers';
import type { LeadEvent } from '@funnel/contracts/lead-events';
import { buyerRecords } from '@funnel/db/buyer-records';
import { migrate, openDatabase } from '@funnel/db/database';
import { recordEvents } from '@funnel/db/record-events';
import { dropSchema, testDatabaseUrl, testSchema } from '@funnel/testing/postgres';
import type { BuyerAdapter } from '../src/buyers/buyer-adapter.js';
import { BuyerLearning } from '../src/buyers/buyer-learning.js';
import { Bulkheads } from '../src/buyers/bulkheads.js';
import { createBuyerAdapter } from '../src/buyers/create-buyer-adapter.js';
import { planAuction } from '../src/waterfall/auction.js';
import { WaterfallCursors } from '../src/waterfall/waterfall-cursor.js';
import { Pipeline } from './pipeline-fixture.js';
import {
  buyersFile,
  startBuyersSandbox,
  startWaterfallWorker,
  storedSampleLead,
} from './waterfall-fixture.js';

const fixed = (ms: number) => ({ latencyMinMs: ms, latencyMaxMs: ms });
const bidsAt = (price: number) => ({ bidRate: 1, bidMin: price, bidMax: price });

const schema = testSchema('auction');
const db = openDatabase({ url: testDatabaseUrl(), schema });
let sandbox: Awaited<ReturnType<typeof startBuyersSandbox>>;

beforeAll(async () => {
  await migrate(db, schema);
  sandbox = await startBuyersSandbox([
    { id: 'slow-a', protocol: 'ping-post', seed: 1, ...bidsAt(50), acceptShare: 1, ...fixed(1500) },
    { id: 'slow-b', protocol: 'ping-post', seed: 2, ...bidsAt(40), acceptShare: 1, ...fixed(1500) },
    { id: 'too-slow', protocol: 'ping-post', seed: 3, ...bidsAt(200), acceptShare: 1, ...fixed(2000) },
    { id: 'direct', protocol: 'sync-post', seed: 4, interestShare: 1, maxValue: 1000, ...fixed(0) },
    { id: 'known', protocol: 'ping-post', seed: 5, ...bidsAt(40), acceptShare: 1, ...fixed(0) },
    { id: 'newcomer', protocol: 'ping-post', seed: 6, ...bidsAt(30), acceptShare: 1, ...fixed(0) },
    // Bids highest and turns every post down, slowly: the candidates after it wait.
    { id: 'declines', protocol: 'ping-post', seed: 7, ...bidsAt(100), acceptShare: 0, ...fixed(700) },
    // Second best, but its bid lapses while the first is being posted.
    {
      id: 'fleeting',
      protocol: 'ping-post',
      seed: 8,
      ...bidsAt(90),
      acceptShare: 1,
      bidTtlMs: 1400,
      ...fixed(0),
    },
    { id: 'steady', protocol: 'ping-post', seed: 9, ...bidsAt(30), acceptShare: 1, ...fixed(0) },
  ]);
});
afterAll(async () => {
  await sandbox?.process.stop();
  await db.destroy();
  await dropSchema(schema);
});

const pingPost = (id: string, extra: Partial<BuyerInput> = {}): BuyerInput => ({
  id,
  tier: 1,
  protocol: 'ping-post',
  baseUrl: sandbox.buyerUrl(id),
  ...extra,
});
const newLead = () => ({ ...storedSampleLead(), id: randomBytes(16).toString('base64url') });

/** The auction's plan for a fresh lead, with real adapters against the sandbox and real cap counters. */
async function plan(
  buyers: BuyerInput[],
  auction: Record<string, unknown> = {},
  learning?: BuyerLearning,
): Promise<{ steps: Awaited<ReturnType<typeof planAuction>> }> {
  const file = buyersFile(buyers, 'America/Chicago', { mode: 'auction', auction });
  const adapters = new Map<string, BuyerAdapter>(file.buyers.map((b) => [b.id, createBuyerAdapter(b)]));
  const pipeline = new Pipeline();
  try {
    const deps = {
      buyers: file,
      adapters,
      bulkheads: new Bulkheads(file.buyers),
      cursors: new WaterfallCursors(pipeline.redis, pipeline.keyPrefix),
      learning,
      now: Date.now,
    };
    return { steps: await planAuction(deps, newLead(), Date.now() + 60_000) };
  } finally {
    await Promise.all([...adapters.values()].map((a) => a.close()));
    await pipeline.close();
  }
}

const pingsOf = (id: string) => sandbox.pings(id);

describe('the ping round', () => {
  it('pings every buyer at once, each under its own deadline, and ranks the bids with the direct floors', async () => {
    const tooSlowBefore = await pingsOf('too-slow');
    const { steps } = await plan(
      [
        pingPost('slow-a', { pingPost: { pingMs: 2500 } }),
        pingPost('slow-b', { pingPost: { pingMs: 2500 } }),
        pingPost('too-slow', { pingPost: { pingMs: 300 } }),
        {
          id: 'direct',
          tier: 2,
          protocol: 'sync-post',
          baseUrl: sandbox.buyerUrl('direct'),
          priceLadder: [20, 5],
        },
      ],
      { roundMs: 2500 },
    );
    // Two buyers answer each ping after 1.5 s: both bids fit in a 2.5 s round only when pinged at once (one
    // after the other, the second would be cut at the round's end and bid nothing).
    expect(steps.map((s) => `${s.buyer}@${s.bid?.price ?? s.floor}`)).toEqual([
      'slow-a@50',
      'slow-b@40',
      'direct@20',
      'direct@5',
    ]);
    // No record yet: every buyer on the priors, 0.75 accepted and 0.05 returned.
    expect(steps[0]!.ranking).toMatchObject({
      rank: 1,
      source: 'bid',
      price: 50,
      pAccepted: 0.75,
      pReturned: 0.05,
      posts: 0,
    });
    expect(steps[0]!.ranking!.expectedValue).toBeCloseTo(50 * 0.75 * 0.95, 10);
    expect(steps[2]!.ranking).toMatchObject({ rank: 3, source: 'floor', price: 20 });
    // The slow buyer was pinged, told it had 200 ms, and its late answer counted as no bid.
    const tooSlow = await pingsOf('too-slow');
    expect(tooSlow.pings - tooSlowBefore.pings).toBe(1);
    expect(tooSlow.noBids - tooSlowBefore.noBids).toBe(1);
  });

  it("ends at the round's deadline when a buyer's own deadline is longer", async () => {
    const before = await pingsOf('too-slow');
    const { steps } = await plan([pingPost('too-slow', { pingPost: { pingMs: 5000 } })], {
      roundMs: 300,
    });
    expect(steps).toEqual([]);
    // The buyer was told the round's 300 ms, not its own 5 s: its 2 s answer counts as no bid.
    const after = await pingsOf('too-slow');
    expect(after.pings - before.pings).toBe(1);
    expect(after.noBids - before.noBids).toBe(1);
  });
});

describe('the ranking learns from the system of record', () => {
  it('puts a new buyer, on its prior, above a known buyer that bids more but rarely takes the lead', async () => {
    const now = Date.now();
    const events: LeadEvent[] = [];
    // 'known': 20 posts in the last day, 2 accepted, one of them returned.
    for (let i = 0; i < 20; i++) {
      const leadId = `known-lead-${String(i).padStart(8, '0')}`;
      events.push({
        eventId: `attempt:${leadId}-0`,
        leadId,
        at: new Date(now - 3600_000 - i * 1000).toISOString(),
        type: 'buyer_attempt',
        attemptKey: `${leadId}-0`,
        step: 0,
        buyer: 'known',
        tier: 1,
        result: i < 2 ? 'sold' : 'rejected',
        ...(i < 2 ? { price: 40 } : {}),
        latencyMs: 10,
        fieldErrors: [],
      });
    }
    events.push({
      eventId: 'returned:known-lead-00000000',
      leadId: 'known-lead-00000000',
      at: new Date(now - 1800_000).toISOString(),
      type: 'returned',
      returnId: 'return-known-lead-1',
      buyer: 'known',
      attemptKey: 'known-lead-00000000-0',
      reason: 'invalid_contact',
      price: 40,
      approvedBy: 'rule',
      filedAt: new Date(now - 1800_000).toISOString(),
    });
    await recordEvents(db, events);
    const window = { windowMs: 7 * 24 * 3600_000, returnWindowMs: 30 * 24 * 3600_000 };
    const learning = new BuyerLearning(() => buyerRecords(db, { now: Date.now(), ...window }), 60_000);
    await learning.refresh();
    // Two sales, one returned (settled), the other still returnable (not settled yet).
    expect(learning.record('known')).toEqual({ posts: 20, accepted: 2, settledSales: 1, returned: 1 });
    expect(learning.record('newcomer')).toEqual({ posts: 0, accepted: 0, settledSales: 0, returned: 0 });

    const buyers = [pingPost('known'), pingPost('newcomer')];
    const { steps } = await plan(buyers, { roundMs: 1000 }, learning);
    // known: 40 × (3 + 2)/(4 + 20) × (1 − (1 + 1)/(20 + 1)) = 7.54; newcomer: 30 × 0.75 × 0.95 = 21.375.
    expect(steps.map((s) => s.buyer)).toEqual(['newcomer', 'known']);
    expect(steps[1]!.ranking).toMatchObject({ posts: 20, accepted: 2, settledSales: 1, returned: 1 });
    expect(steps[1]!.ranking!.expectedValue).toBeCloseTo(40 * (5 / 24) * (1 - 2 / 21), 10);
    // Ranked by the highest bid instead, the known buyer comes first whatever its record.
    const byPrice = await plan(buyers, { roundMs: 1000, rankBy: 'price' }, learning);
    expect(byPrice.steps.map((s) => s.buyer)).toEqual(['known', 'newcomer']);
  });
});

describe('the auction in the worker', () => {
  it('posts down the ranking: a rejected post goes to the next candidate, an expired bid is skipped', async () => {
    const buyers = buyersFile(
      [pingPost('declines', { pingPost: { pingMs: 2000 } }), pingPost('fleeting'), pingPost('steady')],
      'America/Chicago',
      { mode: 'auction', auction: { roundMs: 2500 } },
    );
    const pipeline = new Pipeline();
    const worker = startWaterfallWorker(pipeline, buyers);
    try {
      const before = await sandbox.stats();
      const id = await pipeline.submitLead();
      const outcome = await pipeline.finalOutcome(id);
      expect(outcome.outcome).toBe('sold');
      expect(outcome.redirectUrl).toContain('/buyers/steady/');
      const attempts = worker.attemptsOf(id);
      expect(attempts.map((a) => `${a.ranking?.rank}:${a.buyer}:${a.result}:${a.errorKind ?? ''}`)).toEqual([
        '1:declines:rejected:',
        '2:fleeting:error:bid_expired',
        '3:steady:sold:',
      ]);
      expect(attempts[2]!.price).toBe(30);
      const after = await sandbox.stats();
      expect(after.declines!.attempts - before.declines!.attempts).toBe(1);
      // The lapsed bid was never posted.
      expect(after.fleeting!.attempts - before.fleeting!.attempts).toBe(0);
      expect(after.steady!.attempts - before.steady!.attempts).toBe(1);
      for (const buyer of ['declines', 'fleeting', 'steady']) {
        expect((await pingsOf(buyer)).withFieldsBeyondAllowList, buyer).toBe(0);
      }
    } finally {
      await worker.close();
      await pipeline.close();
    }
  });
});
