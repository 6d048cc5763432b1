import { afterAll, beforeAll, expect, it } from 'vitest';
import { startApp } from '@funnel/testing/processes';
import { Pipeline } from './pipeline-fixture.js';
import { startBuyersSandbox, workerProcessEnv } from './waterfall-fixture.js';

let sandbox: Awaited<ReturnType<typeof startBuyersSandbox>>;
// Bids outlive the worker's restart: what is measured is that nothing is posted twice, not bid expiry.
const longBids = { bidRate: 1, bidTtlMs: 120_000 };

beforeAll(async () => {
  sandbox = await startBuyersSandbox([
    // Bids highest, turns every post down, slowly: the worker dies in the middle of these posts.
    {
      id: 'slow-decliner',
      protocol: 'ping-post',
      seed: 11,
      ...longBids,
      bidMin: 100,
      bidMax: 100,
      acceptShare: 0,
      latencyMinMs: 300,
      latencyMaxMs: 600,
    },
    {
      id: 'capped-taker',
      protocol: 'ping-post',
      seed: 12,
      ...longBids,
      bidMin: 50,
      bidMax: 50,
      acceptShare: 1,
      latencyMinMs: 100,
      latencyMaxMs: 300,
    },
    {
      id: 'fallback',
      protocol: 'sync-post',
      seed: 13,
      interestShare: 1,
      maxValue: 500,
      latencyMinMs: 100,
      latencyMaxMs: 300,
    },
  ]);
});
afterAll(() => sandbox?.process.stop());

it('two workers auction leads, one is SIGKILLed mid-auction: no attempt repeated, no cap exceeded, all decided in time', async () => {
  const pingPost = (id: string) => ({ id, tier: 1, protocol: 'ping-post', baseUrl: sandbox.buyerUrl(id) });
  const pipeline = new Pipeline();
  const env = workerProcessEnv(pipeline, sandbox.url, {
    timeZone: 'America/Chicago',
    mode: 'auction',
    // Deadlines long enough that a ping is never lost to a loaded machine (two workers starting from source):
    // the counts below are exact.
    auction: { roundMs: 3000 },
    buyers: [
      { ...pingPost('slow-decliner'), pingPost: { pingMs: 3000 } },
      { ...pingPost('capped-taker'), caps: { perHour: 8 }, pingPost: { pingMs: 3000 } },
      {
        id: 'fallback',
        tier: 2,
        protocol: 'sync-post',
        baseUrl: sandbox.buyerUrl('fallback'),
        priceLadder: [0],
      },
    ],
  });
  const start = () => startApp({ entry: 'apps/worker/src/main.ts', env, readyLog: /worker started/ });
  const [first, other] = await Promise.all([start(), start()]);
  let restarted: Awaited<ReturnType<typeof start>> | undefined;
  try {
    const before = await sandbox.stats();
    const deadlineMs = 40_000;
    const ids = await Promise.all(Array.from({ length: 16 }, () => pipeline.submitLead({ deadlineMs })));
    // Mid-auction: pings in flight or posts at the slow decliner.
    await new Promise((r) => setTimeout(r, 1000));
    await first.kill();
    restarted = await start();
    const outcomes = await Promise.all(ids.map((id) => pipeline.finalOutcome(id, 60_000)));
    expect(outcomes.map((o) => `${o.outcome}:${o.reason ?? ''}`)).toEqual(ids.map(() => 'sold:'));
    // Every lead sold: one decided at its deadline would read no_lender:deadline above.
    const after = await sandbox.stats();
    const posted = (id: string) => after[id]!.attempts - before[id]!.attempts;
    // Every lead posted once to the best bid (declined), then to the taker while its cap of 8 lasts, then to
    // the fallback: never a second post of a lead at a buyer, never a ninth sale under the cap.
    expect(posted('slow-decliner')).toBe(16);
    expect(posted('capped-taker')).toBe(8);
    expect(posted('fallback')).toBe(8);
    for (const id of ['slow-decliner', 'capped-taker', 'fallback']) {
      expect(after[id]!.repeatedAttempts - before[id]!.repeatedAttempts, id).toBe(0);
    }
    // The kill did land mid-auction: some round was pinged again, or some post sent again, under its own id.
    const replays = await Promise.all(
      ['slow-decliner', 'capped-taker'].map(async (id) => {
        const pings = await sandbox.pings(id);
        return pings.replays + after[id]!.replays - before[id]!.replays;
      }),
    );
    expect(replays.reduce((a, b) => a + b, 0)).toBeGreaterThan(0);
  } finally {
    await restarted?.stop();
    await other.stop();
    await first.stop();
    await pipeline.close();
  }
});
