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
  PARTNER_LEAD_REQUEST_EXAMPLE,
  PartnerLeadRequestSchema,
  PartnerWebhookPayloadSchema,
  WEBHOOK_URL_INVALID,
  createPartnerLeadRequestSchema,
  partnerLeadProblems,
} from './partner-api.js';
import { STEPS } from './steps.js';

/** The example's pay date (2025-06-27) is selectable on this Monday. */
const TODAY = '2025-06-16';

function errorsOf(body: Record<string, unknown>): Record<string, string> {
  const result = PartnerLeadRequestSchema.safeParse(body);
  return result.success ? {} : fieldErrors(result.error);
}

describe('PartnerLeadRequestSchema', () => {
  it('accepts the documented example, storing values as the steps do', () => {
    const parsed = PartnerLeadRequestSchema.parse(PARTNER_LEAD_REQUEST_EXAMPLE);
    expect(parsed.socialSecurityNumber).toBe('123456789');
    expect(parsed.amount).toBe(1000);
    expect(partnerLeadProblems(parsed, TODAY)).toEqual({});
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
    expect(errorsOf({ ...PARTNER_LEAD_REQUEST_EXAMPLE, firstName: '' })).toEqual({
      firstName: FIRST_NAME_REQUIRED,
    });
    expect(errorsOf({ ...PARTNER_LEAD_REQUEST_EXAMPLE, phone: '1125550143' })).toEqual({
      phone: PHONE_INVALID,
    });
    const { amount: _amount, ...withoutAmount } = PARTNER_LEAD_REQUEST_EXAMPLE;
    expect(errorsOf(withoutAmount)).toEqual({ amount: LOAN_AMOUNT_REQUIRED });
  });

  it('checks the consent evidence and drops the query of its page URL', () => {
    const consent = PARTNER_LEAD_REQUEST_EXAMPLE.consent;
    expect(
      errorsOf({ ...PARTNER_LEAD_REQUEST_EXAMPLE, consent: { ...consent, at: '2025-06-20 14:03' } }),
    ).toEqual({
      consent: CONSENT_TIME_INVALID,
    });
    expect(
      errorsOf({ ...PARTNER_LEAD_REQUEST_EXAMPLE, consent: { ...consent, pageUrl: 'ftp://x.example/' } }),
    ).toEqual({ consent: CONSENT_PAGE_URL_INVALID });
    const parsed = PartnerLeadRequestSchema.parse({
      ...PARTNER_LEAD_REQUEST_EXAMPLE,
      consent: { ...consent, pageUrl: 'https://loans.partner.example/apply?email=a%40b.example#x' },
    });
    expect(parsed.consent.pageUrl).toBe('https://loans.partner.example/apply');
  });

  it('accepts https webhooks only, unless the deployment allows http (tests, local runs)', () => {
    const http = { ...PARTNER_LEAD_REQUEST_EXAMPLE, webhookUrl: 'http://hooks.partner.example/x' };
    expect(errorsOf(http)).toEqual({ webhookUrl: WEBHOOK_URL_INVALID });
    expect(createPartnerLeadRequestSchema({ allowHttpWebhook: true }).safeParse(http).success).toBe(true);
  });
});

describe('partnerLeadProblems', () => {
  const lead = PartnerLeadRequestSchema.parse(PARTNER_LEAD_REQUEST_EXAMPLE);

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
