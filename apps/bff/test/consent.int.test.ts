import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONSENT_VERSION, RetainedConsentSchema, consentText } from '@funnel/contracts/consent';
import { FUNNEL_NOW } from './funnel-answers.js';
import { LANDING, SUBMIT, submittedLead } from './complete-lead.js';
import { startTestApp, type TestApp } from './test-app.js';

const ADMIN_TOKEN = 'operator-token-0123456789-abcdefghijklmnop';
const DAY_MS = 24 * 3600 * 1000;
const TRUSTEDFORM_URL = 'https://cert.trustedform.com/2f3e4d5c6b7a8f9e0d1c2b3a4f5e6d7c8b9a0f1e';
const JORNAYA_LEAD_ID = 'A1B2C3D4-E5F6-7A8B-9C0D-E1F2A3B4C5D6';

describe('consent evidence', () => {
  let t: TestApp;
  let id: string;

  beforeAll(async () => {
    t = await startTestApp({
      now: () => FUNNEL_NOW,
      env: { ADMIN_API_TOKEN: ADMIN_TOKEN, PARTNER_LIST_VERSION: '2026-11.3' },
    });
    ({ id } = await submittedLead(t.app, {
      landing: {
        amount: 1000,
        loanReason: 'MEDICAL',
        zipCode: '10001',
        tracking: { trustedFormUrl: TRUSTEDFORM_URL, jornayaLeadId: JORNAYA_LEAD_ID },
      },
      headers: { 'user-agent': 'Mozilla/5.0 consent-test', host: 'apply.example.com' },
      submit: { button: 'REQUEST_CASH', consentVersion: CONSENT_VERSION, pagePath: '/requestcash' },
    }));
  });
  afterAll(async () => {
    await t.close();
  });

  const admin = (url: string, authorization?: string) =>
    t.app.inject({ method: 'GET', url, headers: authorization ? { authorization } : {} });

  it('records the text version and hash, button, UTC time, IP, user agent, page, certificates and partner list', async () => {
    const lead = await t.app.leadStore.get(id);
    expect(lead?.consent).toEqual({
      version: CONSENT_VERSION,
      textSha256: createHash('sha256').update(consentText('REQUEST_CASH')).digest('hex'),
      button: 'REQUEST_CASH',
      at: '2026-11-17T15:00:00.000Z',
      ip: '127.0.0.1',
      userAgent: 'Mozilla/5.0 consent-test',
      pageUrl: 'http://apply.example.com/requestcash',
      trustedFormUrl: TRUSTEDFORM_URL,
      jornayaLeadId: JORNAYA_LEAD_ID,
      partnerListVersion: '2026-11.3',
    });
  });

  it('keeps a self-contained copy for five years under its own key, sealed, without SSN, bank or licence data', async () => {
    const key = `${t.env.REDIS_KEY_PREFIX}consent:${id}`;
    const raw = await t.redis.get(key);
    // Sealed whole at rest: it names the person, their contact, IP address and user agent.
    expect(raw).toMatch(/^enc:v1:/);
    expect(raw).not.toMatch(/maria|garcia|2125550142/i);
    const retained = RetainedConsentSchema.parse(await t.app.leadStore.consents.get(id));
    const lead = await t.app.leadStore.get(id);
    expect(retained).toEqual({
      ...lead?.consent,
      leadId: id,
      text: consentText('REQUEST_CASH'),
      contact: {
        firstName: 'Maria',
        lastName: 'Garcia',
        email: 'maria.garcia@example.com',
        phone: '2125550142',
      },
    });
    expect(createHash('sha256').update(retained.text).digest('hex')).toBe(retained.textSha256);
    for (const secret of ['123456789', '123-45-6789', '000123456789', '021000021', 'G1234', '1988-04-09']) {
      expect(raw).not.toContain(secret);
    }
    const ttl = await t.redis.pttl(key);
    expect(ttl).toBeGreaterThan(1825 * DAY_MS);
    expect(ttl).toBeLessThanOrEqual(1826 * DAY_MS);
  });

  it('serves it to an operator, even after the lead itself is gone', async () => {
    await t.redis.del(t.app.leadStore.key(id));
    const response = await admin(`/api/v1/admin/consent/${id}`, `Bearer ${ADMIN_TOKEN}`);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      leadId: id,
      button: 'REQUEST_CASH',
      trustedFormUrl: TRUSTEDFORM_URL,
      jornayaLeadId: JORNAYA_LEAD_ID,
      contact: { email: 'maria.garcia@example.com' },
    });
  });

  it('answers 404 for a lead without a consent record', async () => {
    const response = await admin('/api/v1/admin/consent/AAAAAAAAAAAAAAAAAAAAAA', `Bearer ${ADMIN_TOKEN}`);
    expect(response.statusCode).toBe(404);
    expect(response.json().error.code).toBe('NOT_FOUND');
  });

  it.each([
    ['no Authorization header', undefined],
    ['a wrong token', `Bearer ${ADMIN_TOKEN.replace(/.$/, 'x')}`],
    ['a prefix of the token', `Bearer ${ADMIN_TOKEN.slice(0, 20)}`],
    ['the token without the Bearer scheme', ADMIN_TOKEN],
    ['the token as Basic credentials', `Basic ${Buffer.from(`admin:${ADMIN_TOKEN}`).toString('base64')}`],
  ])('refuses %s with 401', async (_label, authorization) => {
    const response = await admin(`/api/v1/admin/consent/${id}`, authorization);
    expect(response.statusCode).toBe(401);
    expect(response.headers['www-authenticate']).toBe('Bearer');
    expect(response.json()).toEqual({
      error: {
        requestId: expect.any(String),
        code: 'UNAUTHORIZED',
        message: 'Sign in to the operator console, or send a valid operator token.',
      },
    });
  });
});

describe('consent retention and operator access by configuration', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ now: () => FUNNEL_NOW, env: { CONSENT_RETENTION_DAYS: '2' } });
  });
  afterAll(async () => {
    await t.close();
  });

  it('takes the certificates the submit page sends over the landing ones, on the consent and the lead', async () => {
    const pageCert = 'https://cert.trustedform.com/ffffffffffffffffffffffffffffffffffffffff';
    const { id } = await submittedLead(t.app, {
      landing: { ...LANDING, tracking: { trustedFormUrl: TRUSTEDFORM_URL, jornayaLeadId: JORNAYA_LEAD_ID } },
      submit: { ...SUBMIT, trustedFormUrl: pageCert },
    });
    const lead = await t.app.leadStore.get(id);
    expect(lead?.consent).toMatchObject({ trustedFormUrl: pageCert, jornayaLeadId: JORNAYA_LEAD_ID });
    expect(lead?.tracking).toMatchObject({ trustedFormUrl: pageCert, jornayaLeadId: JORNAYA_LEAD_ID });
  });

  it('keeps consent for CONSENT_RETENTION_DAYS and, without ADMIN_API_TOKEN, lets no operator in', async () => {
    const { id } = await submittedLead(t.app);
    const ttl = await t.redis.pttl(`${t.env.REDIS_KEY_PREFIX}consent:${id}`);
    expect(ttl).toBeGreaterThan(DAY_MS);
    expect(ttl).toBeLessThanOrEqual(2 * DAY_MS);
    const response = await t.app.inject({
      method: 'GET',
      url: `/api/v1/admin/consent/${id}`,
      headers: { authorization: 'Bearer anything-at-all-anything-at-all-0123' },
    });
    expect(response.statusCode).toBe(401);
  });
});
