import { UnrecoverableError, type Job } from 'bullmq';
import type { Logger } from 'pino';
import { AffiliatePostbackJobSchema } from '@funnel/contracts/jobs';
import { affiliateOf } from '@funnel/contracts/attribution';
import {
  fillPostbackUrl,
  postbackValues,
  type AffiliatePostbacks,
  type PostbackDelivery,
} from '@funnel/contracts/postbacks';
import type { LeadStore } from '@funnel/lead-store/lead-store';
import { postbackEventOf } from './affiliate-postback-notifier.js';
import { WebhookAddressRefusedError, type WebhookSender } from './webhook-sender.js';

export interface AffiliatePostbackDeps {
  store: Pick<LeadStore, 'getTracking' | 'getOutcome' | 'recordPostback'>;
  postbacks: AffiliatePostbacks;
  sender: Pick<WebhookSender, 'get'>;
  /** How long a lead's delivery record is kept after its latest attempt. */
  logTtlMs: number;
  now: () => number;
  logger: Logger;
}

export type AffiliatePostbackResult = { delivered: number } | { skipped: string };

const USER_AGENT = 'funnel-postbacks/1';

/**
 * One attempt at an affiliate's postback: a GET of its URL template with every macro filled (URL-encoded), no
 * redirects followed, private addresses refused outside local runs. A non-2xx answer, a network error or a
 * timeout throws, so BullMQ retries with backoff; each attempt is recorded for operators. A lead that is gone
 * (deleted) or whose outcome no longer qualifies (a duplicate) is not posted back.
 */
export function createAffiliatePostbackProcessor(deps: AffiliatePostbackDeps) {
  return async function processAffiliatePostback(job: Job): Promise<AffiliatePostbackResult> {
    const { leadId, event } = AffiliatePostbackJobSchema.parse(job.data);
    const [tracking, outcome] = await Promise.all([
      deps.store.getTracking(leadId),
      deps.store.getOutcome(leadId),
    ]);
    if (!tracking) return { skipped: 'lead gone' };
    if (postbackEventOf(outcome) !== event) return { skipped: 'outcome does not qualify' };
    const affiliate = affiliateOf(tracking);
    const postback = affiliate ? deps.postbacks[affiliate] : undefined;
    if (!affiliate || !postback) return { skipped: 'no postback configured' };

    const started = deps.now();
    const url = fillPostbackUrl(
      postback.url,
      postbackValues({ leadId, tracking, event, payout: postback.payout[event], at: new Date(started) }),
    );
    const log = deps.logger.child({ leadId, jobId: job.id, affiliate });
    const record = (entry: Pick<PostbackDelivery, 'result' | 'status' | 'error'>) =>
      deps.store.recordPostback(
        leadId,
        {
          event,
          affiliate,
          attempt: job.attemptsMade + 1,
          ...entry,
          at: new Date(started).toISOString(),
          ms: Math.max(0, deps.now() - started),
        },
        deps.logTtlMs,
      );

    let status: number;
    try {
      status = await deps.sender.get(url, { 'user-agent': USER_AGENT });
    } catch (error) {
      if (error instanceof WebhookAddressRefusedError) {
        await record({ result: 'refused', error: error.message.slice(0, 200) });
        log.error({ err: error.message }, 'postback address refused');
        throw new UnrecoverableError(error.message);
      }
      const message = (error as Error).message.slice(0, 200);
      await record({ result: 'failed', error: message });
      logFailure(log, job, { err: message });
      throw error;
    }
    if (status < 200 || status >= 300) {
      await record({ result: 'failed', status });
      logFailure(log, job, { status });
      throw new Error(`postback answered ${status}`);
    }
    await record({ result: 'delivered', status });
    log.info({ status, event }, 'postback delivered');
    return { delivered: status };
  };
}

/** A failed attempt is a warning while retries remain; the last one needs a person, so it is an error. */
function logFailure(log: Logger, job: Job, details: Record<string, unknown>): void {
  const attempt = job.attemptsMade + 1;
  if (attempt >= (job.opts.attempts ?? 1)) log.error({ ...details, attempt }, 'postback failed for good');
  else log.warn({ ...details, attempt }, 'postback failed, will retry');
}
