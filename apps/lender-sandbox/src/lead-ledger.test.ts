import { describe, expect, it } from 'vitest';
import { LeadLedger, type LeadRecord } from './lead-ledger.js';

const record = (n: number): LeadRecord => ({
  partnerLeadId: `partner-${n}`,
  networkLeadId: `network-${n}`,
  payload: { n },
  loanAmount: 500,
  receivedAt: n,
  decision: { final: 'sold', pendingUntil: 0, pendingPings: 0, soldRedirect: true, rejectRedirect: true },
  posts: 1,
  pings: 0,
});

describe('LeadLedger', () => {
  it('finds a lead by our id and by the network id', () => {
    const ledger = new LeadLedger(10);
    ledger.add(record(1));
    expect(ledger.byPartnerLeadId('partner-1')?.networkLeadId).toBe('network-1');
    expect(ledger.byNetworkLeadId('network-1')?.partnerLeadId).toBe('partner-1');
    expect(ledger.byNetworkLeadId('network-2')).toBeUndefined();
  });

  it('forgets the oldest leads beyond its bound, under both ids', () => {
    const ledger = new LeadLedger(3);
    for (let n = 1; n <= 5; n++) ledger.add(record(n));
    expect(ledger.size).toBe(3);
    expect(ledger.byPartnerLeadId('partner-2')).toBeUndefined();
    expect(ledger.byNetworkLeadId('network-2')).toBeUndefined();
    expect([...ledger.records()].map((r) => r.partnerLeadId)).toEqual([
      'partner-3',
      'partner-4',
      'partner-5',
    ]);
  });

  it('clear forgets everything', () => {
    const ledger = new LeadLedger(3);
    ledger.add(record(1));
    ledger.clear();
    expect(ledger.size).toBe(0);
    expect(ledger.byNetworkLeadId('network-1')).toBeUndefined();
  });
});
