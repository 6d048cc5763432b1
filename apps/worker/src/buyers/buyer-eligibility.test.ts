import { describe, expect, it } from 'vitest';
import { BuyersFileSchema } from '@funnel/contracts/buyers';
import { dayIn } from '@funnel/server-runtime/buyer-caps';
import { hourIn, planWalk, takesLead } from './buyer-eligibility.js';

const { buyers } = BuyersFileSchema.parse({
  timeZone: 'America/Chicago',
  buyers: [
    { id: 'late', protocol: 'lead-service', baseUrl: 'http://x.test', tier: 2, price: 10 },
    {
      id: 'prime',
      protocol: 'sync-post',
      baseUrl: 'http://x.test',
      tier: 1,
      priceLadder: [80, 50],
      filters: {
        states: ['TX'],
        minAmount: 500,
        maxAmount: 5000,
        minMonthlyIncome: 2000,
        creditBands: ['GOOD'],
      },
    },
    {
      id: 'night',
      protocol: 'sync-post',
      baseUrl: 'http://x.test',
      tier: 1,
      priceLadder: [5],
      filters: { activeHours: { fromHour: 20, toHour: 6 }, loanReasons: ['AUTO_REPAIR'] },
    },
  ],
});
const lead = {
  state: 'TX',
  loan_amount: 1000,
  income_net_monthly: 3500,
  credit_score: 'GOOD',
  loan_reason: 'AUTO_REPAIR',
};
// 2025-06-20 15:00 UTC is 10:00 in Chicago (CDT); 03:00 UTC the next day is 22:00 there.
const morning = Date.parse('2025-06-20T15:00:00Z');
const evening = Date.parse('2025-06-21T03:00:00Z');

describe('buyer filters', () => {
  it('reads hour and day in the business time zone', () => {
    expect(hourIn('America/Chicago', morning)).toBe(10);
    expect(hourIn('America/Chicago', evening)).toBe(22);
    expect(dayIn('America/Chicago', evening)).toBe('2025-06-20');
  });

  it.each([
    ['another state', { state: 'CA' }],
    ['too small an amount', { loan_amount: 300 }],
    ['too large an amount', { loan_amount: 10_000 }],
    ['too little income', { income_net_monthly: 1000 }],
    ['another credit band', { credit_score: 'POOR' }],
  ])('leave out a lead with %s', (_, change) => {
    expect(takesLead(buyers[1]!.filters, lead, 'America/Chicago', morning)).toBe(true);
    expect(takesLead(buyers[1]!.filters, { ...lead, ...change }, 'America/Chicago', morning)).toBe(false);
  });

  it('keeps active hours that wrap past midnight', () => {
    expect(takesLead(buyers[2]!.filters, lead, 'America/Chicago', evening)).toBe(true);
    expect(takesLead(buyers[2]!.filters, lead, 'America/Chicago', morning)).toBe(false);
    expect(
      takesLead(buyers[2]!.filters, { ...lead, loan_reason: 'MEDICAL' }, 'America/Chicago', evening),
    ).toBe(false);
  });
});

describe('planWalk', () => {
  it('walks eligible buyers by tier, file order within a tier, each ladder from the top down', () => {
    expect(planWalk(buyers, lead, 'America/Chicago', evening)).toEqual([
      { buyer: 'prime', floor: 80 },
      { buyer: 'prime', floor: 50 },
      { buyer: 'night', floor: 5 },
      { buyer: 'late' },
    ]);
    expect(planWalk(buyers, { ...lead, state: 'CA' }, 'America/Chicago', morning)).toEqual([
      { buyer: 'late' },
    ]);
  });
});

describe("a buyer's screening filters (ADR 0030)", () => {
  const filters = { minScreeningScore: 70, refusedScreeningReasons: ['phone_do_not_call' as const] };
  const verdict = (score: number, reasons: ('phone_do_not_call' | 'email_no_mail')[] = []) => ({
    verdict: 'flag' as const,
    score,
    reasons,
    unchecked: [],
    ms: 3,
  });
  const now = Date.parse('2026-11-28T15:00:00Z');

  it('takes a lead at or above its lowest score, without a finding it refuses', () => {
    expect(takesLead(filters, { ...lead, screening: verdict(70) }, 'UTC', now)).toBe(true);
    expect(takesLead(filters, { ...lead, screening: verdict(60, ['email_no_mail']) }, 'UTC', now)).toBe(
      false,
    );
    expect(takesLead(filters, { ...lead, screening: verdict(70, ['phone_do_not_call']) }, 'UTC', now)).toBe(
      false,
    );
  });

  it('refuses a lead nobody screened when it asked for a score, and takes it when it did not', () => {
    expect(takesLead(filters, lead, 'UTC', now)).toBe(false);
    expect(takesLead({}, lead, 'UTC', now)).toBe(true);
  });
});

describe("a buyer's maximum APR and the states' rate caps (issue 41)", () => {
  const now = Date.parse('2026-11-28T15:00:00Z');
  const buyerAt = (maxApr: number) => ({ maxApr });

  it('keeps a lender above a state’s cap from its residents, and not from a state without one', () => {
    // Illinois caps every consumer loan at 36 % all-in; New York at 25 %; Texas sets none this table knows.
    expect(takesLead(buyerAt(36), { ...lead, state: 'IL' }, 'UTC', now)).toBe(true);
    expect(takesLead(buyerAt(99), { ...lead, state: 'IL' }, 'UTC', now)).toBe(false);
    expect(takesLead(buyerAt(36), { ...lead, state: 'NY' }, 'UTC', now)).toBe(false);
    expect(takesLead(buyerAt(24), { ...lead, state: 'NY' }, 'UTC', now)).toBe(true);
    expect(takesLead(buyerAt(399), { ...lead, state: 'TX' }, 'UTC', now)).toBe(true);
  });

  it('leaves a buyer that states no APR to its own states filter', () => {
    expect(takesLead({}, { ...lead, state: 'IL' }, 'UTC', now)).toBe(true);
    expect(takesLead({ states: ['TX'] }, { ...lead, state: 'IL' }, 'UTC', now)).toBe(false);
  });
});
