import { describe, expect, it } from 'vitest';
import { BuyersFileSchema, type Buyer, type BuyerInput } from '@funnel/contracts/buyers';
import type { BuyerAdapter } from './buyer-adapter.js';
import { BuyerRegistry } from './buyer-registry.js';

const buyer = (id: string, extra: Partial<BuyerInput> = {}): BuyerInput => ({
  id,
  protocol: 'sync-post',
  baseUrl: `http://127.0.0.1:9/buyers/${id}`,
  tier: 1,
  priceLadder: [10],
  ...extra,
});
const file = (...buyers: BuyerInput[]) => BuyersFileSchema.parse({ timeZone: 'America/Chicago', buyers });

/** Adapters that remember which buyer settings made them and whether they were closed. */
function adapterLog() {
  const made: { buyer: Buyer; closed: boolean }[] = [];
  const create = (b: Buyer): BuyerAdapter => {
    const entry = { buyer: b, closed: false };
    made.push(entry);
    return {
      buyer: b,
      post: () => Promise.reject(new Error('not called')),
      check: () => Promise.reject(new Error('not called')),
      close: async () => {
        entry.closed = true;
      },
    };
  };
  return { made, create };
}

describe('the buyer registry', () => {
  it('swaps to a newer version whole: an unchanged buyer keeps its adapter, a changed or removed one is closed', async () => {
    const log = adapterLog();
    const registry = new BuyerRegistry(
      { version: 1, file: file(buyer('a'), buyer('b')), paused: [] },
      log.create,
    );
    const before = registry.current;
    expect(
      registry.apply({ version: 2, file: file(buyer('a'), buyer('c', { concurrency: 2 })), paused: ['a'] }),
    ).toBe(true);
    const after = registry.current;
    expect(after.version).toBe(2);
    expect(after.adapters.get('a')).toBe(before.adapters.get('a'));
    expect([...after.adapters.keys()]).toEqual(['a', 'c']);
    expect(registry.isPaused('a')).toBe(true);
    await new Promise((resolve) => setImmediate(resolve));
    expect(log.made.map((m) => [m.buyer.id, m.closed])).toEqual([
      ['a', false],
      ['b', true],
      ['c', false],
    ]);
    // The new buyer's share is there, the removed buyer's is gone.
    expect(registry.bulkheads.tryTake('c')).toBeTypeOf('function');
    expect(registry.bulkheads.tryTake('b')).toBeUndefined();
  });

  it('replaces the adapter of a buyer whose settings changed, and ignores a version not newer than its own', () => {
    const log = adapterLog();
    const registry = new BuyerRegistry({ version: 3, file: file(buyer('a')), paused: [] }, log.create);
    expect(registry.apply({ version: 3, file: file(buyer('a', { tier: 2 })), paused: ['a'] })).toBe(false);
    expect(registry.apply({ version: 2, file: file(buyer('a', { tier: 2 })), paused: ['a'] })).toBe(false);
    expect(registry.isPaused('a')).toBe(false);
    const old = registry.current.adapters.get('a');
    registry.apply({
      version: 4,
      file: file(buyer('a', { baseUrl: 'http://127.0.0.1:9/moved' })),
      paused: [],
    });
    expect(registry.current.adapters.get('a')).not.toBe(old);
    expect(log.made.at(-1)!.buyer.baseUrl).toBe('http://127.0.0.1:9/moved');
  });

  it('keeps the places of calls in flight across a swap, and a shrunk share takes none until they end', () => {
    const registry = new BuyerRegistry(
      { version: 1, file: file(buyer('a', { concurrency: 2 })), paused: [] },
      adapterLog().create,
    );
    const first = registry.bulkheads.tryTake('a')!;
    const second = registry.bulkheads.tryTake('a')!;
    registry.apply({ version: 2, file: file(buyer('a', { concurrency: 1 })), paused: [] });
    expect(registry.bulkheads.inFlight('a')).toBe(2);
    expect(registry.bulkheads.tryTake('a')).toBeUndefined();
    first();
    expect(registry.bulkheads.tryTake('a')).toBeUndefined();
    second();
    expect(registry.bulkheads.tryTake('a')).toBeTypeOf('function');
  });
});
