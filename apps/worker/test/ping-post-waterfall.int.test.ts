import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Pipeline } from './pipeline-fixture.js';
import { buyersFile, startBuyersSandbox, startWaterfallWorker } from './waterfall-fixture.js';

const fast = { latencyMinMs: 0, latencyMaxMs: 0 };

/** Ping/post buyers as steps of the waterfall (issue 27, until the auction): a submitted lead end to end. */
describe('ping-post buyers in the waterfall', () => {
  let sandbox: Awaited<ReturnType<typeof startBuyersSandbox>>;

  beforeAll(async () => {
    sandbox = await startBuyersSandbox([
      // Bids 10 on every lead, below the floor of 15 the buyers file sets for it.
      { id: 'cheap', protocol: 'ping-post', seed: 1, bidRate: 1, bidMin: 10, bidMax: 10, ...fast },
      { id: 'no-bids', protocol: 'ping-post', seed: 2, bidRate: 0, ...fast },
      {
        id: 'taker',
        protocol: 'ping-post',
        seed: 3,
        bidRate: 1,
        bidMin: 35,
        bidMax: 35,
        acceptShare: 1,
        ...fast,
      },
    ]);
  });
  afterAll(() => sandbox.process.stop());

  const buyer = (id: string, tier: number, extra: Record<string, unknown> = {}) => ({
    id,
    tier,
    protocol: 'ping-post' as const,
    baseUrl: sandbox.buyerUrl(id),
    ...extra,
  });

  it('moves past a bid under the floor and no bid, and sells to the next bid at its price', async () => {
    const buyers = buyersFile([
      buyer('cheap', 1, { priceLadder: [15] }),
      buyer('no-bids', 2),
      buyer('taker', 3, { pingPost: { pingMs: 1000 } }),
    ]);
    const pipeline = new Pipeline();
    const worker = startWaterfallWorker(pipeline, buyers);
    try {
      const before = await sandbox.stats();
      const id = await pipeline.submitLead();
      const outcome = await pipeline.finalOutcome(id);
      expect(outcome.outcome).toBe('sold');
      expect(outcome.redirectUrl).toContain('/buyers/taker/lender/offer/');
      expect(worker.attemptsOf(id).map((a) => `${a.buyer}@${a.floor ?? '-'}:${a.result}`)).toEqual([
        'cheap@15:rejected',
        'no-bids@-:rejected',
        'taker@-:sold',
      ]);
      expect(worker.attemptsOf(id)[2]!.price).toBe(35);
      const after = await sandbox.stats();
      // Only the winning bid was posted; nothing was posted to the others.
      expect(after.cheap!.attempts - before.cheap!.attempts).toBe(0);
      expect(after['no-bids']!.attempts - before['no-bids']!.attempts).toBe(0);
      expect(after.taker!.attempts - before.taker!.attempts).toBe(1);
      for (const id of ['cheap', 'no-bids', 'taker']) {
        const pings = await sandbox.pings(id);
        expect(pings.pings, id).toBeGreaterThan(0);
        expect(pings.withFieldsBeyondAllowList, id).toBe(0);
      }
    } finally {
      await worker.close();
      await pipeline.close();
    }
  });
});
