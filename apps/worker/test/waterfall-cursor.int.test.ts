import { Redis } from 'ioredis';
import { afterAll, describe, expect, inject, it } from 'vitest';
import type {} from '@funnel/testing/services-global-setup';
import { deleteKeys, testKeyPrefix } from '@funnel/testing/redis-keys';
import { WaterfallCursors } from '../src/waterfall/waterfall-cursor.js';

describe('waterfall cursors and caps in Redis', () => {
  const keyPrefix = testKeyPrefix('cursor');
  // Several connections, as several workers would have.
  const connections = Array.from({ length: 4 }, () => new Redis(inject('redisUrl')));
  const cursors = connections.map((c) => new WaterfallCursors(c, keyPrefix));
  afterAll(async () => {
    await deleteKeys(connections[0]!, keyPrefix);
    await Promise.all(connections.map((c) => c.quit()));
  });
  const window = { startedAt: Date.now(), endsAt: Date.now() + 5000 };
  const caps = (perHour: number | undefined, perDay: number | undefined) => ({
    ...cursors[0]!.capKeys('buyer-a', window.startedAt, '2026-11-25'),
    perHour,
    perDay,
  });

  it('never gives more places than the cap to walks starting at the same time', async () => {
    const leads = Array.from({ length: 60 }, (_, i) => `lead-cap-${String(i).padStart(12, '0')}`);
    await Promise.all(
      leads.map((id, i) => cursors[i % 4]!.init(id, [{ buyer: 'buyer-a', floor: 0 }], 60_000)),
    );
    const answers = await Promise.all(
      leads.map((id, i) => cursors[i % 4]!.begin(id, 0, window, caps(7, 100))),
    );
    expect(answers.filter((a) => a === 'ok')).toHaveLength(7);
    expect(answers.filter((a) => a === 'capped')).toHaveLength(53);
    expect(await cursors[0]!.capCount(caps(7, 100).hourKey)).toBe(7);
    expect(await cursors[0]!.capCount(caps(7, 100).dayKey)).toBe(7);
  });

  it('gives a failed attempt’s place back exactly once, and keeps a sale’s', async () => {
    const [first, second, third] = [
      'lead-rel-000000000001',
      'lead-rel-000000000002',
      'lead-rel-000000000003',
    ];
    // A day of its own, so the first test's counters do not count here.
    const dayKey = cursors[0]!.capKeys('buyer-a', window.startedAt, '2026-11-26').dayKey;
    const c = { ...caps(undefined, 2), dayKey };
    for (const id of [first!, second!, third!])
      await cursors[0]!.init(id, [{ buyer: 'buyer-a' }, { buyer: 'b' }], 60_000);
    expect(await cursors[0]!.begin(first!, 0, window, c)).toBe('ok');
    expect(await cursors[1]!.begin(second!, 0, window, c)).toBe('ok');
    expect(await cursors[2]!.begin(third!, 0, window, c)).toBe('capped');
    // Two runs close the same failed attempt (a lost lock): one moves the walk, the other finds it moved.
    const closes = await Promise.all([
      cursors[0]!.advance(first!, 0, { next: 1, release: true }),
      cursors[1]!.advance(first!, 0, { next: 1, release: true }),
    ]);
    expect(closes.sort()).toEqual(['ok', 'stale']);
    expect(await cursors[0]!.capCount(dayKey)).toBe(1);
    expect(await cursors[2]!.begin(third!, 0, window, c)).toBe('ok');
    expect(
      await cursors[1]!.sold(second!, 0, { buyer: 'buyer-a', price: 12, redirectUrl: 'https://x.test/o' }),
    ).toBe('ok');
    expect(await cursors[0]!.capCount(dayKey)).toBe(2);
    expect(await cursors[0]!.get(second!)).toMatchObject({ state: 'done', result: { price: 12 } });
    expect(await cursors[0]!.get(first!)).toMatchObject({ index: 1, state: 'ready' });
  });

  it('gives back the places of an attempt still in flight when its lead ends outside the walk, once', async () => {
    const [inFlight, sold] = ['lead-close-00000000001', 'lead-close-00000000002'];
    const dayKey = cursors[0]!.capKeys('buyer-a', window.startedAt, '2026-11-27').dayKey;
    const c = { ...caps(undefined, 5), dayKey };
    for (const id of [inFlight!, sold!]) await cursors[0]!.init(id, [{ buyer: 'buyer-a' }], 60_000);
    expect(await cursors[0]!.begin(inFlight!, 0, window, c)).toBe('ok');
    expect(await cursors[0]!.begin(sold!, 0, window, c)).toBe('ok');
    expect(await cursors[0]!.pending(inFlight!, 0, 'upstream-1', 'check-1')).toBe('ok');
    expect(
      await cursors[0]!.sold(sold!, 0, { buyer: 'buyer-a', price: 20, redirectUrl: 'https://x.test/o' }),
    ).toBe('ok');
    expect(await cursors[0]!.capCount(dayKey)).toBe(2);
    // The reconciler and a late run both close the same walk: one place comes back, not two.
    expect((await Promise.all([cursors[0]!.close(inFlight!), cursors[1]!.close(inFlight!)])).sort()).toEqual([
      'ok',
      'stale',
    ]);
    expect(await cursors[0]!.capCount(dayKey)).toBe(1);
    // A run that still held the attempt cannot give the place back again, nor start another attempt.
    expect(await cursors[2]!.advance(inFlight!, 0, { next: 1, release: true })).toBe('stale');
    expect(await cursors[2]!.begin(inFlight!, 0, window, c)).toBe('stale');
    expect(await cursors[0]!.capCount(dayKey)).toBe(1);
    // A sold walk keeps its place.
    expect(await cursors[0]!.close(sold!)).toBe('stale');
    expect(await cursors[0]!.capCount(dayKey)).toBe(1);
    expect(await cursors[0]!.get(inFlight!)).toMatchObject({ state: 'closed' });
  });
});
