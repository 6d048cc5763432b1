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
  mapLenderFieldErrors,
  type SubmittableLead,
} from './lender-network.js';
import { SAMPLE_LEAD, SAMPLE_SUBMISSION_CONTEXT } from './sample-lead.js';

const lead = SAMPLE_LEAD;
const context = SAMPLE_SUBMISSION_CONTEXT;

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

  it('uses an attempt key as the idempotency key when one is given, keeping lead_id', () => {
    const payload = buildSubmissionPayload(lead, { ...context, idempotencyKey: `${context.leadId}-0` });
    expect(payload.partnerLeadId).toBe(`${context.leadId}-0`);
    expect(payload.lead_id).toBe(context.leadId);
  });

  it('maps the network field errors back to our field names', () => {
    expect(mapLenderFieldErrors({ bankAba: 'Invalid', confirm_pii: 'Bad', price: 'Must be 0' })).toEqual([
      { field: 'bank_aba', buyerField: 'bankAba', description: 'Invalid' },
      { field: 'ssn', buyerField: 'confirm_pii', description: 'Bad' },
      { field: 'price', buyerField: 'price', description: 'Must be 0' },
    ]);
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
