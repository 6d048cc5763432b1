import type { Job } from 'bullmq';
import type { Logger } from 'pino';
import { CLIENT_TO_SERVER } from '@funnel/contracts/fields';
import type { LeadStore } from '@funnel/lead-store/lead-store';
import type { SuppressionList } from '@funnel/lead-store/suppression-list';
import { failJob, type OutboundHttp } from './outbound-http.js';

/** What a follow-up that sends a lead's contact to a service reads and writes with. */
export interface ContactDeliveryDeps {
  store: Pick<LeadStore, 'get'>;
  suppression: Pick<SuppressionList, 'isSuppressed'>;
  http: Pick<OutboundHttp, 'postJson'>;
  logger: Logger;
}

/**
 * What the suppression list holds against a lead's contact (the email being sent, and the phone the lead gave),
 * read when the job runs, not when it was queued.
 */
export function contactSuppression(
  suppression: Pick<SuppressionList, 'isSuppressed'>,
  email: string,
  fields: Record<string, unknown>,
) {
  const phone = fields[CLIENT_TO_SERVER.phone];
  return suppression.isSuppressed({ email, phone: typeof phone === 'string' ? phone : undefined });
}

/** One POST of a lead's contact to a service: logged either way; a failure goes to {@link failJob}. */
export async function deliverContact(
  deps: Pick<ContactDeliveryDeps, 'http' | 'logger'>,
  context: { job: Job; leadId: string },
  request: { service: string; url: string; body: unknown; headers: Record<string, string> },
  log: { failed: string; done: string },
): Promise<void> {
  const where = { leadId: context.leadId, jobId: context.job.id };
  try {
    await deps.http.postJson(request.service, request.url, request.body, request.headers);
  } catch (error) {
    deps.logger.warn({ ...where, err: (error as Error).message }, log.failed);
    failJob(error);
  }
  deps.logger.info(where, log.done);
}
