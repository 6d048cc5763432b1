import { afterEach, describe, expect, it } from 'vitest';
import { CONSENT_VERSION } from '@funnel/contracts/consent';
import { testEnv, startTestApp, type TestApp } from './test-app.js';

const THIRD_PARTY_HOSTS = /trustedform\.com|lidstatic\.com|leadid\.com/;

function directive(csp: string, name: string): string {
  return csp.split(';').find((part) => part.trim().startsWith(`${name} `)) ?? '';
}

describe('GET /api/v1/config and the consent scripts in the CSP', () => {
  let t: TestApp | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  it('enables no script and allows no third-party host by default', async () => {
    t = await startTestApp({ env: { PARTNER_LIST_VERSION: 'p-7', DUPLICATE_WINDOW_DAYS: '30' } });
    const response = await t.app.inject({ method: 'GET', url: '/api/v1/config' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      consentVersion: CONSENT_VERSION,
      partnerListVersion: 'p-7',
      businessTimeZone: 'America/New_York',
      duplicateWindowDays: 30,
      // Nothing configured outside production: the sample details, said to be samples, and no blog or social link.
      brand: {
        contact: expect.objectContaining({ email: 'support@loanbridge.example', sample: true }),
        social: [],
      },
      trustedForm: { enabled: false, certificateField: 'xxTrustedFormCertUrl' },
      jornaya: {
        enabled: false,
        tokenField: 'universal_leadid',
        disclosureLabelId: 'leadid_tcpa_disclosure',
      },
      // The test app loads the shared reference data, whose O*NET and GeoNames parts need attribution.
      dataAttributions: [expect.stringMatching(/O\*NET/), expect.stringMatching(/GeoNames/)],
    });
    expect(String(response.headers['content-security-policy'])).not.toMatch(THIRD_PARTY_HOSTS);
  });

  it('gives the configured contact details and links, not samples (issue 25)', async () => {
    t = await startTestApp({
      env: {
        BRAND_CONTACT_EMAIL: 'help@acme-loans.com',
        BRAND_CONTACT_PHONE: '+1 302 555 0199',
        BRAND_CONTACT_HOURS: 'Every day, 8 a.m. to 8 p.m.',
        BRAND_MAILING_ADDRESS: 'Acme Loans LLC|1 Main St|Dover, DE 19901',
        BRAND_BLOG_URL: 'https://blog.acme-loans.com/',
        BRAND_SOCIAL_LINKS: 'linkedin=https://www.linkedin.com/company/acme-loans',
      },
    });
    const response = await t.app.inject({ method: 'GET', url: '/api/v1/config' });
    expect(response.json().brand).toEqual({
      contact: {
        email: 'help@acme-loans.com',
        privacyEmail: 'help@acme-loans.com',
        phone: '(302) 555-0199',
        phoneE164: '+13025550199',
        hours: 'Every day, 8 a.m. to 8 p.m.',
        mailingAddress: ['Acme Loans LLC', '1 Main St', 'Dover, DE 19901'],
        sample: false,
      },
      blogUrl: 'https://blog.acme-loans.com/',
      social: [{ network: 'linkedin', url: 'https://www.linkedin.com/company/acme-loans' }],
    });
  });

  it('gives the scripts to load and allows their hosts when enabled', async () => {
    t = await startTestApp({
      env: { TRUSTEDFORM_ENABLED: 'true', JORNAYA_ENABLED: 'true', JORNAYA_CAMPAIGN_ID: 'a1b2c3d4-e5f6' },
    });
    const response = await t.app.inject({ method: 'GET', url: '/api/v1/config' });
    expect(response.json()).toMatchObject({
      trustedForm: {
        enabled: true,
        scriptUrl: expect.stringMatching(
          /^https:\/\/api\.trustedform\.com\/trustedform\.js\?field=xxTrustedFormCertUrl/,
        ),
      },
      jornaya: {
        enabled: true,
        scriptUrl: 'https://create.lidstatic.com/campaign/a1b2c3d4-e5f6.js?snippet_version=2',
      },
    });
    const csp = String(response.headers['content-security-policy']);
    expect(directive(csp, 'script-src')).toContain('https://api.trustedform.com');
    expect(directive(csp, 'script-src')).toContain('https://create.lidstatic.com');
    expect(directive(csp, 'connect-src')).toContain('https://api.trustedform.com');
    expect(directive(csp, 'connect-src')).toContain('https://*.leadid.com');
    expect(directive(csp, 'img-src')).toContain('https://*.leadid.com');
    expect(directive(csp, 'default-src')).toBe("default-src 'self'");
  });

  it('allows only the enabled one', async () => {
    t = await startTestApp({ env: { TRUSTEDFORM_ENABLED: 'true' } });
    const csp = String(
      (await t.app.inject({ method: 'GET', url: '/api/v1/config' })).headers['content-security-policy'],
    );
    expect(csp).toContain('trustedform.com');
    expect(csp).not.toMatch(/lidstatic\.com|leadid\.com/);
  });

  it('documents the config, cross-sell and operator endpoints, the latter behind a console role or the token', async () => {
    t = await startTestApp();
    const doc = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json();
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        '/api/v1/config',
        '/api/v1/lead/cross-sell',
        '/api/v1/admin/consent/{leadId}',
        '/api/v1/admin/deletion-requests',
      ]),
    );
    const deletion = doc.paths['/api/v1/admin/deletion-requests'].post;
    expect(deletion.security).toEqual([{ operatorSession: [] }, { adminToken: [] }]);
    expect(deletion.description).toMatch(/^Role: \*\*admin\*\*\./);
    expect(Object.keys(deletion.responses)).toEqual(expect.arrayContaining(['401', '403']));
    expect(doc.components.securitySchemes.adminToken).toMatchObject({ type: 'http', scheme: 'bearer' });
  });

  it('refuses to start with Jornaya enabled and no campaign', () => {
    expect(() => testEnv({ JORNAYA_ENABLED: 'true' })).toThrow(/JORNAYA_CAMPAIGN_ID: required/);
  });
});
