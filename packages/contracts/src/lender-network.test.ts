import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import {
  LEAD_STATUS,
  PingQuerySchema,
  PingResponseSchema,
  SubmissionPayloadSchema,
  SubmitResponseSchema,
  buildSubmissionPayload,
  type SubmissionContext,
  type SubmittableLead,
} from './lender-network.js';

/** A complete stored lead, decrypted, in server field names. */
const lead: SubmittableLead = {
  loan_amount: 1000,
  loan_reason: 'DEBT_CONSOLIDATION',
  zip: '78701',
  city: 'Austin',
  state: 'TX',
  first_name: 'Maria',
  last_name: 'Garcia',
  email: 'maria.garcia@example.com',
  home_phone: '5125550143',
  contact_time: 'MORNING',
  dob: '1988-04-12',
  address: '1200 Barton Springs Rd Apt 4',
  time_at_residence: 36,
  own_home: 'NO',
  income_type: 'EMPLOYMENT',
  work_time_at_employer: 24,
  debt_amount: '5000_9999',
  income_payment_frequency: 'BIWEEKLY',
  income_net_monthly: 3500,
  income_next_date_1: '2025-06-27',
  income_next_date_2: '2025-07-11',
  work_company_name: 'Lone Star Logistics LLC',
  job_title: 'Warehouse Supervisor',
  work_phone: '5125550198',
  bank_direct_deposit: 'YES',
  bank_aba: '114994031',
  bank_name: 'Austin Capital Bank SSB',
  bank_account_type: 'CHECKING',
  bank_account_length_month: 30,
  bank_account_number: '004512398765',
  drivers_license_number: '41872305',
  drivers_license_state: 'TX',
  own_car: 'YES',
  credit_score: 'FAIR',
  ssn: '123456789',
};

const context: SubmissionContext = {
  leadId: 'k3J9xQ2mVb7TzR1pL8wN4A',
  tracking: {
    utmSource: 'google',
    utmMedium: 'cpc',
    utmCampaign: 'personal-loans-tx',
    utmId: 'cmp-20250601',
    pubs: 'pub-1042',
    offerId: 'offer-77',
    subSource: 'search',
    affiliateId: 'aff-310',
    affiliateSubId: 'sub-12',
    campaignType: 'pm',
    clickId: 'clk-8f2a9c',
    visitorId: 'v-5d1e7b2c',
    fbp: 'fb.1.1718000000000.1234567890',
    gclAw: 'GCL.1718000000.Cj0KCQjw',
    adId: 'ad-5531',
    webSiteUrl: 'https://www.example.com/',
    trustedFormUrl: 'https://cert.trustedform.com/2f3e4d5c6b7a8f9e0d1c2b3a4f5e6d7c8b9a0f1e',
    jornayaLeadId: 'A1B2C3D4-E5F6-7A8B-9C0D-E1F2A3B4C5D6',
  },
  userIp: '203.0.113.45',
  userAgent:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36',
  webSiteUrl: 'https://www.example.com/ssn',
};

const golden: unknown = JSON.parse(
  readFileSync(new URL('./__golden__/submission-payload.json', import.meta.url), 'utf8'),
);

describe('buildSubmissionPayload', () => {
  it('matches the reviewed golden payload', () => {
    expect(buildSubmissionPayload(lead, context)).toStrictEqual(golden);
  });

  it('builds a payload the network-side schema accepts unchanged', () => {
    expect(SubmissionPayloadSchema.parse(golden)).toStrictEqual(golden);
  });

  it('sends military income as SELF_EMPLOYMENT with activeMilitary YES', () => {
    const payload = buildSubmissionPayload({ ...lead, income_type: 'MILITARY' }, context);
    expect(payload.incomeType).toBe('SELF_EMPLOYMENT');
    expect(payload.activeMilitary).toBe('YES');
  });

  it.each(['EMPLOYMENT', 'SELF_EMPLOYMENT', 'BENEFITS'] as const)(
    'sends %s as is with activeMilitary NO',
    (type) => {
      const payload = buildSubmissionPayload({ ...lead, income_type: type }, context);
      expect(payload.incomeType).toBe(type);
      expect(payload.activeMilitary).toBe('NO');
    },
  );

  it('uses our lead id as lead_id and as the idempotency key', () => {
    const payload = buildSubmissionPayload(lead, context);
    expect(payload.partnerLeadId).toBe(context.leadId);
    expect(payload.lead_id).toBe(context.leadId);
  });

  it('sends the SSN dashed and confirm_pii as nine digits, whichever form is stored', () => {
    for (const ssn of ['123456789', '123-45-6789']) {
      const payload = buildSubmissionPayload({ ...lead, ssn }, context);
      expect(payload.ssn).toBe('123-45-6789');
      expect(payload.confirm_pii).toBe('123456789');
    }
  });

  it('leaves out tracking tokens that are absent or empty', () => {
    const payload = buildSubmissionPayload(lead, {
      ...context,
      tracking: { utmSource: 'bing', utmMedium: '' },
    });
    expect(payload.utm_source).toBe('bing');
    for (const field of ['source', 'aff_id', 'aff_sub3', 'trustedFormURL', 'jornayaLeadId', 'clickid']) {
      expect(payload).not.toHaveProperty(field);
    }
  });

  it('passes test mode through only when set', () => {
    expect(buildSubmissionPayload(lead, context)).not.toHaveProperty('testMode');
    const payload = buildSubmissionPayload(lead, { ...context, testMode: true, testSold: false });
    expect(payload.testMode).toBe(true);
    expect(payload.testSold).toBe(false);
  });

  it('refuses an incomplete lead', () => {
    const { bank_aba: _, ...incomplete } = lead;
    expect(() => buildSubmissionPayload(incomplete as SubmittableLead, context)).toThrow(z.ZodError);
  });

  it.each([
    ['bank_aba', '114994032'],
    ['ssn', '666123456'],
    ['home_phone', '1125550143'],
    ['income_next_date_1', '2025-06-31'],
    ['bank_account_number', '123'],
  ] as const)('refuses an invalid %s', (field, value) => {
    expect(() => buildSubmissionPayload({ ...lead, [field]: value }, context)).toThrow(z.ZodError);
  });
});

describe('responses', () => {
  it('names the statuses', () => {
    expect(LEAD_STATUS).toEqual({ SOLD: 1, REJECTED: 2, PENDING: 3 });
  });

  it('parses submit responses', () => {
    expect(SubmitResponseSchema.parse({ data: { status: 3, lead_id: 'L-991' } })).toEqual({
      data: { status: 3, lead_id: 'L-991' },
    });
    const sold = { data: { status: 1, lead_id: 'L-991' }, redirect_url: 'https://lender.example/offer/abc' };
    expect(SubmitResponseSchema.parse(sold)).toEqual(sold);
    const rejected = { data: { status: 2, lead_id: 'L-991' }, rejectUrl: 'https://partner.example/fallback' };
    expect(SubmitResponseSchema.parse(rejected)).toEqual(rejected);
  });

  it('parses an unknown status, which the worker must still handle', () => {
    expect(SubmitResponseSchema.parse({ data: { status: 7, lead_id: 'L-991' } }).data.status).toBe(7);
  });

  it('refuses a redirect address the browser must not follow', () => {
    const bad = { data: { status: 1, lead_id: 'L-991' }, redirect_url: 'javascript:alert(1)' };
    expect(SubmitResponseSchema.safeParse(bad).success).toBe(false);
  });

  it('parses the doubly nested ping response', () => {
    const ping = { data: { data: { status: 1, redirect_url: 'https://lender.example/offer/abc' } } };
    expect(PingResponseSchema.parse(ping)).toEqual(ping);
    expect(PingResponseSchema.safeParse({ data: { status: 1 } }).success).toBe(false);
  });

  it('parses the ping query', () => {
    const query = { lead_id: 'L-991', checkKey: 'k-1', utm_source: 'google' };
    expect(PingQuerySchema.parse(query)).toEqual(query);
  });
});
