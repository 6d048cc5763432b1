import type { Job } from 'bullmq';
import type { Logger } from 'pino';
import { CLIENT_TO_SERVER } from '@funnel/contracts/fields';
import { LeadJobSchema } from '@funnel/contracts/jobs';
import {
  TRUSTEDFORM_API_VERSION,
  TrustedFormRetainResponseSchema,
  isTrustedFormCertificate,
  type TrustedFormRetainRequest,
} from '@funnel/contracts/trustedform';
import { TrackingSchema } from '@funnel/contracts/tracking';
import type { LeadStore } from '@funnel/lead-store/lead-store';
import type { FollowUpResult } from './follow-up-result.js';
import { failJob, type OutboundHttp } from './outbound-http.js';

/** TrustedForm credentials, and the certificate origin they may be sent to. */
export interface TrustedFormConfig {
  apiKey: string;
  /** `https://cert.trustedform.com`; a local stand-in in tests. */
  certOrigin: string;
}

export interface TrustedFormRetainDeps {
  store: Pick<LeadStore, 'get'>;
  http: Pick<OutboundHttp, 'postJson'>;
  /** Unset without `TRUSTEDFORM_API_KEY`: nothing is retained. */
  trustedForm: TrustedFormConfig | undefined;
  logger: Logger;
}

const CONTACT_FIELDS: ReadonlySet<string> = new Set([CLIENT_TO_SERVER.email, CLIENT_TO_SERVER.phone]);

/**
 * Retains the TrustedForm certificate of a sold lead (API v4: `retain` with `match_lead`), so the consent
 * evidence is kept in our TrustedForm account. The certificate URL came from the visitor's browser: our key is
 * sent only to a URL on the configured certificate origin, never anywhere else.
 */
export function createTrustedFormRetainProcessor(deps: TrustedFormRetainDeps) {
  return async function retainCertificate(job: Job): Promise<FollowUpResult> {
    const { leadId } = LeadJobSchema.parse(job.data);
    if (!deps.trustedForm) return { skipped: 'TrustedForm not configured' };
    // The email and phone go to TrustedForm (match_lead); nothing else sealed is opened.
    const lead = await deps.store.get(leadId, { open: (field) => CONTACT_FIELDS.has(field) });
    if (!lead) return { skipped: 'lead no longer exists' };
    if (lead.outcome?.outcome !== 'sold') return { skipped: 'lead not sold' };
    const certUrl = TrackingSchema.safeParse(lead.tracking).data?.trustedFormUrl;
    if (!certUrl) return { skipped: 'no certificate' };
    if (!isTrustedFormCertificate(certUrl, deps.trustedForm.certOrigin)) {
      deps.logger.warn(
        { leadId },
        'certificate URL is not on the TrustedForm certificate host; not retained',
      );
      return { skipped: 'certificate not on the certificate host' };
    }

    const email = lead.fields[CLIENT_TO_SERVER.email];
    const phone = lead.fields[CLIENT_TO_SERVER.phone];
    const body: TrustedFormRetainRequest = {
      retain: { reference: leadId },
      match_lead: {
        ...(typeof email === 'string' ? { email } : {}),
        ...(typeof phone === 'string' ? { phone } : {}),
      },
    };
    const credentials = Buffer.from(`API:${deps.trustedForm.apiKey}`).toString('base64');
    let answer: unknown;
    try {
      ({ json: answer } = await deps.http.postJson('TrustedForm', certUrl, body, {
        authorization: `Basic ${credentials}`,
        'api-version': TRUSTEDFORM_API_VERSION,
      }));
    } catch (error) {
      deps.logger.warn({ leadId, jobId: job.id, err: (error as Error).message }, 'TrustedForm retain failed');
      failJob(error);
    }
    const result = TrustedFormRetainResponseSchema.safeParse(answer);
    const outcome = result.success ? result.data.outcome : 'unreadable answer';
    // Retained either way; a failed lead match is a signal for the operator, not a reason to retry.
    const log = outcome === 'success' ? deps.logger.info : deps.logger.warn;
    log.call(deps.logger, { leadId, jobId: job.id, outcome }, 'TrustedForm certificate retained');
    return { done: `retained (${outcome})` };
  };
}
