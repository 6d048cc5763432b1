import { describe, expect, it } from 'vitest';
import { fieldErrors } from './errors.js';
import {
  DOB_UNDER_18,
  FIRST_NAME_REQUIRED,
  LOAN_AMOUNT_REQUIRED,
  PAY_DATE_OUT_OF_WINDOW,
  PHONE_INVALID,
  WORK_PHONE_SAME_AS_PERSONAL,
} from './messages.js';
import {
  CONSENT_PAGE_URL_INVALID,
  CONSENT_REQUIRED,
  CONSENT_TIME_INVALID,
  PartnerLeadRequestSchema,
  PartnerWebhookPayloadSchema,
  WEBHOOK_URL_INVALID,
  createPartnerLeadRequestSchema,
  partnerLeadProblems,
  partnerLeadRequestExample,
} from './partner-api.js';
import { STEPS } from './steps.js';

const TODAY = '2025-06-16';
const EXAMPLE = partnerLeadRequestExample(TODAY);

function errorsOf(body: Record<string, unknown>): Record<string, string> {
  const result = PartnerLeadRequestSchema.safeParse(body);
  return result.success ? {} : fieldErrors(result.error);
}

describe('PartnerLeadRequestSchema', () => {
  it('accepts the documented example, storing values as the steps do', () => {
    const parsed = PartnerLeadRequestSchema.parse(EXAMPLE);
    expect(parsed.socialSecurityNumber).toBe('123456789');
    expect(parsed.amount).toBe(1000);
    expect(partnerLeadProblems(parsed, TODAY)).toEqual({});
  });

  it('builds an example valid on the day it is built: before a weekend, a bank holiday, a new year', () => {
    for (const today of ['2025-06-16', '2026-11-27', '2026-12-24', '2027-12-31', '2028-02-28']) {
      const example = partnerLeadRequestExample(today);
      expect(partnerLeadProblems(PartnerLeadRequestSchema.parse(example), today), today).toEqual({});
      expect(example.consent.at < `${today}T00:00:00Z`, today).toBe(true);
    }
  });

  it("asks for every step's required fields and the landing amount, loan reason and ZIP", () => {
    const required = PartnerLeadRequestSchema.safeParse({});
    expect(required.success).toBe(false);
    const missing = new Set(Object.keys(fieldErrors(required.error!)));
    for (const step of STEPS) for (const field of step.requiredFields) expect(missing).toContain(field);
    for (const field of ['amount', 'loanReason', 'zipCode', 'consent']) expect(missing).toContain(field);
    expect(fieldErrors(required.error!).consent).toBe(CONSENT_REQUIRED);
    expect(missing).not.toContain('tracking');
    expect(missing).not.toContain('webhookUrl');
  });

  it("gives the steps' own messages", () => {
    expect(errorsOf({ ...EXAMPLE, firstName: '' })).toEqual({
      firstName: FIRST_NAME_REQUIRED,
    });
    expect(errorsOf({ ...EXAMPLE, phone: '1125550143' })).toEqual({
      phone: PHONE_INVALID,
    });
    const { amount: _amount, ...withoutAmount } = EXAMPLE;
    expect(errorsOf(withoutAmount)).toEqual({ amount: LOAN_AMOUNT_REQUIRED });
  });

  it('checks the consent evidence and drops the query of its page URL', () => {
    const consent = EXAMPLE.consent;
    expect(errorsOf({ ...EXAMPLE, consent: { ...consent, at: '2025-06-20 14:03' } })).toEqual({
      consent: CONSENT_TIME_INVALID,
    });
    expect(errorsOf({ ...EXAMPLE, consent: { ...consent, pageUrl: 'ftp://x.example/' } })).toEqual({
      consent: CONSENT_PAGE_URL_INVALID,
    });
    const parsed = PartnerLeadRequestSchema.parse({
      ...EXAMPLE,
      consent: { ...consent, pageUrl: 'https://loans.partner.example/apply?email=a%40b.example#x' },
    });
    expect(parsed.consent.pageUrl).toBe('https://loans.partner.example/apply');
  });

  it('accepts https webhooks only, unless the deployment allows http (tests, local runs)', () => {
    const http = { ...EXAMPLE, webhookUrl: 'http://hooks.partner.example/x' };
    expect(errorsOf(http)).toEqual({ webhookUrl: WEBHOOK_URL_INVALID });
    expect(createPartnerLeadRequestSchema({ allowHttpWebhook: true }).safeParse(http).success).toBe(true);
  });
});

describe('partnerLeadProblems', () => {
  const lead = PartnerLeadRequestSchema.parse(EXAMPLE);

  it('checks age and the pay-date window on today', () => {
    expect(partnerLeadProblems({ ...lead, dob: '2010-01-01' }, TODAY)).toEqual({ dob: DOB_UNDER_18 });
    expect(partnerLeadProblems(lead, '2025-07-01')).toEqual({ incomeNextDate1: PAY_DATE_OUT_OF_WINDOW });
  });

  it('reports a work phone equal to the personal phone once, on the work phone', () => {
    expect(partnerLeadProblems({ ...lead, employerPhone: lead.phone }, TODAY)).toEqual({
      employerPhone: WORK_PHONE_SAME_AS_PERSONAL,
    });
  });
});

describe('PartnerWebhookPayloadSchema', () => {
  it('carries final outcomes only', () => {
    const payload = { leadId: 'k3J9xQ2mVb7TzR1pL8wN4A', decidedAt: '2025-06-20T14:03:19.412Z' };
    expect(PartnerWebhookPayloadSchema.safeParse({ ...payload, outcome: 'sold' }).success).toBe(true);
    expect(PartnerWebhookPayloadSchema.safeParse({ ...payload, outcome: 'pending' }).success).toBe(false);
  });
});
