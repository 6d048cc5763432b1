import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { SAMPLE_LEAD, SAMPLE_SUBMISSION_CONTEXT } from './sample-lead.js';
import type { SubmittableLead } from './lender-network.js';
import {
  BidResponseSchema,
  PING_WITHHELD_FIELDS,
  PingPayloadSchema,
  PostPayloadSchema,
  PostResponseSchema,
  bidOf,
  buildPingPayload,
  buildPostPayload,
  isBidLive,
  mapPingPostErrors,
} from './ping-post-network.js';
import { ageBandOn } from './age-band.js';
import { pingFieldsBeyondAllowList } from './ping-allow-list.js';
import { bandOf } from './screening.js';

const lead = SAMPLE_LEAD;
const context = SAMPLE_SUBMISSION_CONTEXT;
const pingAttempt = { pingId: 'p7Qe2sVd9LxW4kTz0bNc1A', maxResponseMs: 500, today: '2025-06-20' };

const golden = (name: string): unknown =>
  JSON.parse(readFileSync(new URL(`./__golden__/${name}`, import.meta.url), 'utf8'));

/** The lead's fields a ping carries, as the ping's derivations read them. */
const PINGED_LEAD_FIELDS = [
  'state',
  'zip',
  'loan_amount',
  'loan_reason',
  'credit_score',
  'debt_amount',
  'income_net_monthly',
  'income_payment_frequency',
  'income_type',
  'dob',
  'own_home',
  'time_at_residence',
  'work_time_at_employer',
  'bank_account_length_month',
  'bank_account_type',
  'bank_direct_deposit',
  'own_car',
];

/** Every string a ping must never contain: each withheld field's value, and the submission's own identifiers. */
function identifyingValues(l: SubmittableLead): string[] {
  const values = PING_WITHHELD_FIELDS.map((field) => String(l[field])).filter((v) => v.length >= 4);
  const { tracking } = context;
  return [
    ...values,
    context.leadId,
    context.userIp,
    context.userAgent,
    context.webSiteUrl,
    ...[tracking.clickId, tracking.trustedFormUrl, tracking.jornayaLeadId, tracking.affiliateId].map(String),
  ];
}

describe('buildPingPayload', () => {
  it('matches the reviewed golden ping', () => {
    expect(buildPingPayload(lead, context, pingAttempt)).toStrictEqual(golden('ping-payload.json'));
    expect(PingPayloadSchema.parse(golden('ping-payload.json'))).toStrictEqual(golden('ping-payload.json'));
  });

  it('lists every field of the full lead as pinged or withheld; only the ZIP and birth date are both (banded)', () => {
    const all = Object.keys(lead).sort();
    const withheld = [...PING_WITHHELD_FIELDS] as string[];
    expect([...new Set([...withheld, ...PINGED_LEAD_FIELDS])].sort()).toEqual(all);
    expect(withheld.filter((f) => PINGED_LEAD_FIELDS.includes(f)).sort()).toEqual(['dob', 'zip']);
  });

  it('carries no value of a withheld field and no identifier of the submission', () => {
    const ping = JSON.stringify(buildPingPayload(lead, context, pingAttempt));
    for (const value of identifyingValues(lead)) expect(ping).not.toContain(value);
    // The full ZIP and birth date are only ever sent banded.
    expect(ping).not.toContain(lead.zip);
    expect(ping).not.toContain(lead.dob.slice(0, 4));
  });

  it('does not change when only withheld fields change', () => {
    const other: SubmittableLead = {
      ...lead,
      first_name: 'Ana',
      email: 'ana@example.org',
      ssn: '219099999',
      zip: '78799',
      city: 'Round Rock',
      dob: '1988-01-01',
      bank_account_number: '99887766',
    };
    expect(buildPingPayload(other, context, pingAttempt)).toStrictEqual(
      buildPingPayload(lead, context, pingAttempt),
    );
  });

  it('finds a field beyond the allow-list in a ping body', () => {
    const ping = buildPingPayload(lead, context, pingAttempt);
    expect(pingFieldsBeyondAllowList(ping)).toEqual([]);
    const leaky = { ...ping, Email: lead.email, Fields: { ...ping.Fields, Zip: lead.zip } };
    expect(pingFieldsBeyondAllowList(leaky)).toEqual(['Email', 'Fields.Zip']);
    expect(PingPayloadSchema.safeParse(leaky).success).toBe(false);
  });

  it("carries screening's band when the lead has one, and nothing of it when not (ADR 0030)", () => {
    const banded = buildPingPayload(lead, context, { ...pingAttempt, qualityBand: 'B' });
    expect(banded).toStrictEqual({ ...buildPingPayload(lead, context, pingAttempt), QualityBand: 'B' });
    expect(pingFieldsBeyondAllowList(banded)).toEqual([]);
    expect(bandOf(100)).toBe('A');
    expect([bandOf(90), bandOf(89), bandOf(70), bandOf(69), bandOf(50), bandOf(49)]).toEqual([
      'A',
      'B',
      'B',
      'C',
      'C',
      'D',
    ]);
  });

  it('bands the age on the ping day', () => {
    expect(ageBandOn('2000-06-21', '2025-06-20')).toBe('18-24');
    expect(ageBandOn('2000-06-20', '2025-06-20')).toBe('25-34');
    expect(ageBandOn('1960-01-01', '2025-06-20')).toBe('65+');
  });

  it('refuses an incomplete lead', () => {
    const { zip: _, ...incomplete } = lead;
    expect(() => buildPingPayload(incomplete as SubmittableLead, context, pingAttempt)).toThrow();
  });
});

describe('buildPostPayload', () => {
  const ping = buildPingPayload(lead, context, pingAttempt);
  const postAttempt = { idempotencyKey: `${context.leadId}-3`, bidId: 'bid-4f1c2a', pinged: ping.Fields };

  it('matches the reviewed golden post', () => {
    expect(buildPostPayload(lead, context, postAttempt)).toStrictEqual(golden('post-payload.json'));
    expect(PostPayloadSchema.parse(golden('post-payload.json'))).toStrictEqual(golden('post-payload.json'));
  });

  it("sends the pinged fields exactly as pinged, even when the lead's bands moved since", () => {
    const post = buildPostPayload({ ...lead, loan_amount: 2000 }, context, postAttempt);
    expect(post.Pinged).toStrictEqual(ping.Fields);
    expect(post.Pinged.LoanAmount).toBe(1000);
  });

  it('refuses an incomplete lead', () => {
    const { bank_aba: _, ...incomplete } = lead;
    expect(() => buildPostPayload(incomplete as SubmittableLead, context, postAttempt)).toThrow(z.ZodError);
  });
});

describe('bids', () => {
  it('parses a bid and no bid', () => {
    const answer = BidResponseSchema.parse({
      Result: 'Bid',
      BidID: 'b1',
      Price: 42.5,
      ExpiresAt: '2025-06-20T15:00:02.000Z',
    });
    expect(bidOf(answer)).toEqual({ bidId: 'b1', price: 42.5, expiresAt: Date.UTC(2025, 5, 20, 15, 0, 2) });
    expect(bidOf(BidResponseSchema.parse({ Result: 'NoBid' }))).toBeUndefined();
    expect(
      BidResponseSchema.safeParse({ Result: 'Bid', BidID: 'b1', Price: 0, ExpiresAt: 'soon' }).success,
    ).toBe(false);
  });

  it('is live only while it outlives the margin', () => {
    const bid = { expiresAt: 10_000 };
    expect(isBidLive(bid, 9_000, 500)).toBe(true);
    expect(isBidLive(bid, 9_500, 500)).toBe(false);
    expect(isBidLive(bid, 9_499, 500)).toBe(true);
    expect(isBidLive(bid, 10_001, 0)).toBe(false);
  });
});

describe('post answers', () => {
  it('parses accepted, rejected and error answers', () => {
    expect(PostResponseSchema.parse({ Result: 'Accepted', Price: 40 }).Errors).toEqual([]);
    expect(PostResponseSchema.parse({ Result: 'Rejected', Reason: 'Tampered' }).Reason).toBe('Tampered');
    expect(PostResponseSchema.safeParse({ Result: 'Accepted', RedirectURL: 'javascript:1' }).success).toBe(
      false,
    );
  });

  it('maps field errors of both parts back to our names and drops the values', () => {
    const mapped = mapPingPostErrors([
      { Field: 'Lead.BankRoutingNumber', Value: '114994032', Description: 'Checksum failed' },
      { Field: 'Pinged.AgeBand', Value: '18-24', Description: 'Does not match DateOfBirth' },
      { Field: 'Zip', Description: 'Not in Zip3' },
      { Field: 'BidID', Description: 'Unknown' },
    ]);
    expect(mapped).toEqual([
      { field: 'bank_aba', buyerField: 'Lead.BankRoutingNumber', description: 'Checksum failed' },
      { field: 'dob', buyerField: 'Pinged.AgeBand', description: 'Does not match DateOfBirth' },
      { field: 'zip', buyerField: 'Zip', description: 'Not in Zip3' },
      { field: 'BidID', buyerField: 'BidID', description: 'Unknown' },
    ]);
    expect(JSON.stringify(mapped)).not.toContain('114994032');
  });
});
