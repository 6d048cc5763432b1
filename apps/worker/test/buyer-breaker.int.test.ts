import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BuyerInput } from '@funnel/contracts/buyers';
import { readBuyerBreakers } from '@funnel/server-runtime/buyer-breaker';
import { BuyerBreakers, type BreakerTransition } from '../src/buyers/buyer-breakers.js';
import { BuyerRegistry } from '../src/buyers/buyer-registry.js';
import { createBuyerAdapter } from '../src/buyers/create-buyer-adapter.js';
import { Pipeline } from './pipeline-fixture.js';
import { buyersFile, startBuyersSandbox, startWaterfallWorker } from './waterfall-fixture.js';

const fast = { latencyMinMs: 0, latencyMaxMs: 0 };
const COOL_DOWN_MS = 60_000;

describe("a buyer's circuit breaker, shared by the workers through Redis", () => {
  let sandbox: Awaited<ReturnType<typeof startBuyersSandbox>>;

  beforeAll(async () => {
    sandbox = await startBuyersSandbox([
      // Leaves every lead pending for ten minutes: every attempt at it runs out of time.
      {
        id: 'hanging',
        protocol: 'lead-service',
        seed: 1,
        soldShare: 1,
        pendingShare: 1,
        pendingMinMs: 600_000,
        pendingMaxMs: 600_000,
        ...fast,
      },
      { id: 'backup', protocol: 'sync-post', seed: 2, interestShare: 1, maxValue: 1000, ...fast },
      { id: 'healed', protocol: 'lead-service', seed: 3, soldShare: 1, pendingShare: 0, ...fast },
    ]);
  });
  afterAll(() => sandbox.process.stop());

  it('opens after N timeouts, sends the next leads to the next buyer, and closes after one good trial', async () => {
    const flaky = (target: string): BuyerInput => ({
      id: 'flaky',
      tier: 1,
      protocol: 'lead-service',
      baseUrl: sandbox.buyerUrl(target),
      price: 25,
      timeouts: { attemptMs: 1000, pollMs: 100 },
      breaker: { failures: 2, coolDownMs: COOL_DOWN_MS },
    });
    const backup: BuyerInput = {
      id: 'backup',
      tier: 2,
      protocol: 'sync-post',
      baseUrl: sandbox.buyerUrl('backup'),
      priceLadder: [0],
    };
    const file = buyersFile([flaky('hanging'), backup]);
    const registry = new BuyerRegistry({ version: 1, file, paused: [] }, (b) => createBuyerAdapter(b));
    const pipeline = new Pipeline();
    // The breakers' clock: the cool-down passes when the test says so.
    let clock = Date.parse('2026-11-26T03:00:00Z');
    const transitions: BreakerTransition[] = [];
    const breakers = new BuyerBreakers(pipeline.redis, pipeline.keyPrefix, {
      now: () => clock,
      onTransition: (t) => void transitions.push(t),
    });
    // A second worker's breakers on the same Redis.
    const other = new BuyerBreakers(pipeline.redis, pipeline.keyPrefix, {
      now: () => clock,
      onTransition: (t) => void transitions.push(t),
    });
    const worker = startWaterfallWorker(pipeline, file, { registry, breakers });
    const sell = async () => {
      const id = await pipeline.submitLead();
      const outcome = await pipeline.finalOutcome(id);
      return { outcome, attempts: worker.attemptsOf(id).map((a) => `${a.buyer}:${a.result}`) };
    };
    const breaker = async () =>
      (await readBuyerBreakers(pipeline.redis, pipeline.keyPrefix, ['flaky'])).get('flaky')!;
    try {
      const before = await sandbox.stats();
      for (let i = 0; i < 2; i += 1) {
        const { outcome, attempts } = await sell();
        expect(outcome.outcome).toBe('sold');
        expect(attempts).toEqual(['flaky:timeout', 'backup:sold']);
      }
      expect(await breaker()).toMatchObject({ state: 'open', failures: 2, openUntil: clock + COOL_DOWN_MS });
      expect(transitions.map((t) => `${t.from}->${t.to}`)).toEqual(['closed->open']);

      // Open: the next leads go straight to the next buyer; the broken one is not even called.
      for (let i = 0; i < 2; i += 1) {
        const { outcome, attempts } = await sell();
        expect(outcome.redirectUrl).toContain('/buyers/backup/');
        expect(attempts).toEqual(['backup:sold']);
      }
      expect((await sandbox.stats()).hanging!.attempts - before.hanging!.attempts).toBe(2);
      expect((await breaker()).skips).toBe(2);
      // The other worker agrees.
      expect([...(await other.blocked(['flaky', 'backup']))]).toEqual(['flaky']);
      expect(await other.admit(registry.current.file.buyers[0]!)).toBe(false);

      // The buyer is mended meanwhile; after the cool-down, of two workers asking at once, one takes the trial.
      registry.apply({ version: 2, file: buyersFile([flaky('healed'), backup]), paused: [] });
      clock += COOL_DOWN_MS;
      const mended = registry.current.file.buyers[0]!;
      const claims = await Promise.all([breakers.admit(mended), other.admit(mended)]);
      expect(claims.filter(Boolean)).toHaveLength(1);
      expect(await breaker()).toMatchObject({ state: 'half-open' });
      // That trial's worker died without a word: once the trial's time is over, a lead takes it and sells.
      clock += mended.timeouts.attemptMs;
      const { outcome, attempts } = await sell();
      expect(attempts).toEqual(['flaky:sold']);
      expect(outcome.redirectUrl).toContain('/buyers/healed/');
      expect(await breaker()).toMatchObject({ state: 'closed', failures: 0 });
      expect(transitions.map((t) => `${t.from}->${t.to}`)).toEqual([
        'closed->open',
        'open->half-open',
        'half-open->closed',
      ]);
    } finally {
      await worker.close();
      await registry.close();
      await pipeline.close();
    }
  });
});
