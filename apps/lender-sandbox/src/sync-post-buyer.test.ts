import { describe, expect, it } from 'vitest';
import { SandboxBuyerSchema } from '@funnel/contracts/sandbox-buyers';
import { buildSyncPostPayload } from '@funnel/contracts/sync-post-network';
import { SyncPostBuyer } from './sync-post-buyer.js';
import { STORED_LEAD, newLeadId } from './test-fixtures.js';

const context = {
  tracking: {},
  userIp: '203.0.113.45',
  userAgent: 'sandbox-test',
  webSiteUrl: 'https://www.example.com/ssn',
};

function buyer(extra: Record<string, unknown>) {
  const profile = SandboxBuyerSchema.parse({
    id: 'slowish',
    protocol: 'sync-post',
    seed: 5,
    latencyMinMs: 10,
    latencyMaxMs: 20,
    ...extra,
  });
  if (profile.protocol !== 'sync-post') throw new Error('expected a sync-post profile');
  return new SyncPostBuyer(profile, 'http://sandbox.test/buyers/slowish', 1000);
}

const post = (target: SyncPostBuyer, leadId: string, step: number, maxResponseSeconds = 30) =>
  target.post(
    buildSyncPostPayload(
      STORED_LEAD,
      { ...context, leadId },
      { idempotencyKey: `${leadId}-${step}`, minimumPrice: 50 - step * 10, maxResponseSeconds },
    ),
  );

describe('a slow sync-post buyer (slowShare, slowMs)', () => {
  it('answers about slowShare of its leads after slowMs, every floor of a slow lead alike', () => {
    const slow = buyer({ slowShare: 0.5, slowMs: 9000 });
    let slowLeads = 0;
    for (let i = 0; i < 200; i += 1) {
      const leadId = newLeadId();
      const delays = [0, 1, 2].map((step) => post(slow, leadId, step).delayMs);
      expect(new Set(delays.map((d) => d === 9000)).size).toBe(1);
      if (delays[0] === 9000) slowLeads += 1;
      else for (const d of delays) expect(d).toBeLessThanOrEqual(20);
    }
    expect(slowLeads).toBeGreaterThan(60);
    expect(slowLeads).toBeLessThan(140);
  });

  it('is never slow by default, and never later than MaxResponseTime (then rejected)', () => {
    const plain = buyer({});
    for (let i = 0; i < 50; i += 1) expect(post(plain, newLeadId(), 0).delayMs).toBeLessThanOrEqual(20);
    const allSlow = buyer({ slowShare: 1, slowMs: 9000 });
    const answer = post(allSlow, newLeadId(), 0, 5);
    expect(answer.delayMs).toBe(5000);
    expect(answer.body.Result).toBe('Rejected');
  });
});
