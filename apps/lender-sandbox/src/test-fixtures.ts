import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import {
  LENDER_NETWORK_PATHS,
  buildSubmissionPayload,
  type SubmissionContext,
  type SubmissionPayload,
  type SubmittableLead,
} from '@funnel/contracts/lender-network';
import { SAMPLE_LEAD } from '@funnel/contracts/sample-lead';
import { buildSandbox, type SandboxOptions } from './app.js';
import type { OutcomeConfigPatch } from './sandbox-config.js';

/** A complete stored lead, decrypted, in server field names. */
export const STORED_LEAD = SAMPLE_LEAD;

/** A fresh lead id in our format (URL-safe, 128 bits). */
export function newLeadId(): string {
  return randomBytes(16).toString('base64url');
}

/** A valid submission payload for a new lead id, built the way the worker builds it. */
export function submissionPayload(
  context: Partial<SubmissionContext> = {},
  lead: Partial<SubmittableLead> = {},
): SubmissionPayload {
  return buildSubmissionPayload(
    { ...STORED_LEAD, ...lead },
    {
      leadId: newLeadId(),
      tracking: { utmSource: 'google', utmMedium: 'cpc' },
      userIp: '203.0.113.45',
      userAgent: 'Mozilla/5.0 (X11; Linux x86_64) sandbox-test',
      webSiteUrl: 'https://www.example.com/ssn',
      ...context,
    },
  );
}

/** A sandbox that answers at once; `outcome` overrides any other setting. */
export function testSandbox(
  outcome: OutcomeConfigPatch = {},
  options: SandboxOptions = {},
): Promise<FastifyInstance> {
  return buildSandbox({ outcome: { latencyMinMs: 0, latencyMaxMs: 0, ...outcome } }, options);
}

export function postLead(app: FastifyInstance, payload: unknown) {
  return app.inject({ method: 'POST', url: LENDER_NETWORK_PATHS.submit, payload: payload as object });
}

export function pingLead(app: FastifyInstance, leadId: string) {
  return app.inject({
    method: 'GET',
    url: LENDER_NETWORK_PATHS.ping,
    query: { lead_id: leadId, checkKey: 'sandbox-check-key', utm_source: 'google' },
  });
}

/** A clock the test moves by hand. */
export function manualClock(start = Date.parse('2025-06-20T15:00:00Z')) {
  let now = start;
  return {
    now: () => now,
    advance(ms: number) {
      now += ms;
    },
  };
}
