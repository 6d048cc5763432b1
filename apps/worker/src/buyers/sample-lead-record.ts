import { CONSENT_VERSION } from '@funnel/contracts/consent';
import { SAMPLE_LEAD, SAMPLE_SUBMISSION_CONTEXT } from '@funnel/contracts/sample-lead';
import type { LeadRecord } from '@funnel/lead-store/lead-store';

/**
 * The sample lead (a fictitious person) as the worker reads a lead from the store: what a manager's test of a
 * buyer sends through the buyer's adapter (ADR 0022), and what the adapters' tests post.
 */
export function sampleLeadRecord(): LeadRecord {
  return {
    id: SAMPLE_SUBMISSION_CONTEXT.leadId,
    fields: SAMPLE_LEAD,
    tracking: SAMPLE_SUBMISSION_CONTEXT.tracking,
    consent: {
      version: CONSENT_VERSION,
      textSha256: 'a'.repeat(64),
      button: 'REQUEST_FUNDS',
      at: '2026-11-25T01:00:00.000Z',
      ip: SAMPLE_SUBMISSION_CONTEXT.userIp,
      userAgent: SAMPLE_SUBMISSION_CONTEXT.userAgent,
      pageUrl: SAMPLE_SUBMISSION_CONTEXT.webSiteUrl,
    },
  } as unknown as LeadRecord;
}
