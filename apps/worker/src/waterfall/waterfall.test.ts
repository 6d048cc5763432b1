import { describe, expect, it } from 'vitest';
import { LeadEventSchema } from '@funnel/contracts/lead-events';
import { mapSyncPostErrors } from '@funnel/contracts/sync-post-network';
import { BuyerSchema } from '@funnel/contracts/buyers';
import { attemptEvent } from './attempt-record.js';
import { bulkheadWaitMs, walkNeedsMs } from './walk-rules.js';

describe('attemptEvent', () => {
  it('is a valid lead event named after the attempt key, with mapped field errors and no values', () => {
    const event = attemptEvent({
      leadId: 'k3J9xQ2mVb7TzR1pL8wN4A',
      attemptKey: 'k3J9xQ2mVb7TzR1pL8wN4A-3',
      index: 3,
      buyer: 'prime-market',
      tier: 1,
      floor: 50,
      result: 'invalid',
      latencyMs: 123.6,
      fieldErrors: mapSyncPostErrors([{ Field: 'SSN', Value: '123456789', Description: 'Not on file' }]),
      at: '2026-11-25T01:00:00.000Z',
    });
    expect(LeadEventSchema.parse(event)).toEqual({
      eventId: 'attempt:k3J9xQ2mVb7TzR1pL8wN4A-3',
      leadId: 'k3J9xQ2mVb7TzR1pL8wN4A',
      at: '2026-11-25T01:00:00.000Z',
      type: 'buyer_attempt',
      attemptKey: 'k3J9xQ2mVb7TzR1pL8wN4A-3',
      step: 3,
      buyer: 'prime-market',
      tier: 1,
      floor: 50,
      result: 'invalid',
      latencyMs: 124,
      fieldErrors: [{ field: 'ssn', buyerField: 'SSN', description: 'Not on file' }],
    });
    expect(JSON.stringify(event)).not.toContain('123456789');
  });

  it('keeps how a failed call ended with the attempt', () => {
    const event = attemptEvent({
      leadId: 'k3J9xQ2mVb7TzR1pL8wN4A',
      attemptKey: 'k3J9xQ2mVb7TzR1pL8wN4A-1',
      index: 1,
      buyer: 'prime-market',
      tier: 1,
      result: 'timeout',
      errorKind: 'queue_timeout',
      latencyMs: 1000,
      fieldErrors: [],
      at: '2026-11-25T01:00:00.000Z',
    });
    expect(LeadEventSchema.parse(event)).toMatchObject({ result: 'timeout', errorKind: 'queue_timeout' });
  });

  it("keeps an auction attempt's rank and the ranking's inputs, for the operator to read", () => {
    const ranking = {
      rank: 2,
      source: 'bid' as const,
      price: 40,
      pAccepted: 5 / 24,
      pReturned: 2 / 21,
      expectedValue: 40 * (5 / 24) * (19 / 21),
      posts: 20,
      accepted: 2,
      settledSales: 1,
      returned: 1,
    };
    const event = attemptEvent({
      leadId: 'k3J9xQ2mVb7TzR1pL8wN4A',
      attemptKey: 'k3J9xQ2mVb7TzR1pL8wN4A-1',
      index: 1,
      buyer: 'known',
      tier: 1,
      result: 'rejected',
      latencyMs: 300,
      fieldErrors: [],
      at: '2026-11-25T01:00:00.000Z',
      ranking,
    });
    expect(LeadEventSchema.parse(event)).toMatchObject({ type: 'buyer_attempt', ranking });
  });
});

describe('bulkheadWaitMs', () => {
  it('waits from about 100 ms, doubling up to about 1 s, with jitter', () => {
    expect(bulkheadWaitMs(0, () => 0.5)).toBe(100);
    expect(bulkheadWaitMs(1, () => 0.5)).toBe(200);
    expect(bulkheadWaitMs(20, () => 0.5)).toBe(1000);
    expect(bulkheadWaitMs(20, () => 0)).toBe(750);
    expect(bulkheadWaitMs(20, () => 0.999)).toBeLessThanOrEqual(1250);
  });
});

describe('walkNeedsMs', () => {
  it('is every remaining step at its buyer’s full budget, the current one included', () => {
    const buyer = (id: string, attemptMs: number, extra: Record<string, unknown>) =>
      BuyerSchema.parse({ id, tier: 1, baseUrl: 'http://buyer.test', timeouts: { attemptMs }, ...extra });
    const buyers = [
      buyer('prime', 20_000, { protocol: 'sync-post', priceLadder: [80, 50, 20] }),
      buyer('network', 120_000, { protocol: 'lead-service', price: 30 }),
    ];
    const plan = [
      { buyer: 'prime', floor: 80 },
      { buyer: 'prime', floor: 50 },
      { buyer: 'prime', floor: 20 },
      { buyer: 'network' },
      { buyer: 'gone' },
    ];
    expect(walkNeedsMs({ plan, index: 0 }, buyers)).toBe(180_000);
    expect(walkNeedsMs({ plan, index: 2 }, buyers)).toBe(140_000);
    expect(walkNeedsMs({ plan, index: 4 }, buyers)).toBe(0);
  });
});
