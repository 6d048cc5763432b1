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
import type { EventOutbox } from '@funnel/lead-store/event-outbox';
import type { LeadStore } from '@funnel/lead-store/lead-store';
import { postbackEventOf } from './affiliate-postback-notifier.js';
import { errorKindOf, recordDeliveryAttempt, type AttemptEnd } from './delivery-attempts.js';
import { WebhookAddressRefusedError, type WebhookSender } from './webhook-sender.js';

export interface AffiliatePostbackDeps {
  store: Pick<LeadStore, 'getTracking' | 'getOutcome' | 'postbacks'>;
  postbacks: AffiliatePostbacks;
  /**
   * The lead-event outbox, with a system of record: a payout reversal and each attempt (for the lead's journey)
   * are recorded as events.
   */
  events?: Pick<EventOutbox, 'append'> | undefined;
  /**
   * Where the lead's return stands in the system of record (`returnStateOf`): a payout job acts only on a return
   * still approved (`returned`) or still reversed (`return_reversed`) when it runs. Absent without one.
   */
  returns?: { stateOf(leadId: string): Promise<ReturnState | undefined> } | undefined;
  sender: Pick<WebhookSender, 'get'>;
  /** How long a lead's delivery record is kept after its latest attempt. */
  logTtlMs: number;
  now: () => number;
  logger: Logger;
}

export interface ReturnState {
  status: 'approved' | 'reversed';
  /** Its `payout_reversed` event reached the system of record. */
  payoutReversed: boolean;
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
    const afterSale = event === 'returned' || event === 'return_reversed';
    const qualifies = afterSale ? postbackEventOf(outcome) === 'sold' : postbackEventOf(outcome) === event;
    if (!qualifies) return { skipped: 'outcome does not qualify' };
    // A return's payout job acts on the return as it stands now: one a manager reversed before the job ran
    // reverses nothing, so the affiliate is never told (ADR 0021, "Reversing a return").
    const state = afterSale && deps.returns ? await deps.returns.stateOf(leadId) : undefined;
    if (event === 'returned' && deps.returns && state?.status !== 'approved') {
      return { skipped: 'return no longer in effect' };
    }
    if (event === 'return_reversed' && state?.status !== 'reversed')
      return { skipped: 'return not reversed' };
    const affiliate = affiliateOf(tracking);
    const postback = affiliate ? deps.postbacks[affiliate] : undefined;
    if (!affiliate || !postback) return { skipped: 'no postback configured' };

    let payout: number | undefined;
    if (event === 'returned') {
      const reversed = await reversePayout(deps, leadId, affiliate, postback);
      if ('skipped' in reversed) return reversed;
      payout = -reversed.amount;
    } else if (event === 'return_reversed') {
      const restored = await restorePayout(deps, leadId, affiliate, postback, state!.payoutReversed);
      if ('skipped' in restored) return restored;
      payout = restored.amount;
    } else {
      payout = postback.payout[event];
    }

    const started = deps.now();
    const url = fillPostbackUrl(
      postback.url,
      postbackValues({ leadId, tracking, event, payout, at: new Date(started) }),
    );
    const log = deps.logger.child({ leadId, jobId: job.id, affiliate });
    const record = async (entry: Pick<PostbackDelivery, 'result' | 'status' | 'error'>, end: AttemptEnd) => {
      const ended = deps.now();
      await deps.store.postbacks.record(
        leadId,
        {
          event,
          affiliate,
          attempt: job.attemptsMade + 1,
          ...entry,
          at: new Date(started).toISOString(),
          ms: Math.max(0, ended - started),
        },
        deps.logTtlMs,
      );
      await recordDeliveryAttempt(deps.events, job, {
        leadId,
        channel: 'affiliate_postback',
        target: affiliate,
        url,
        event,
        started,
        ended,
        end,
      });
    };

    let status: number;
    try {
      status = await deps.sender.get(url, { 'user-agent': USER_AGENT });
    } catch (error) {
      if (error instanceof WebhookAddressRefusedError) {
        await record(
          { result: 'refused', error: error.message.slice(0, 200) },
          { result: 'refused', errorKind: errorKindOf(error) },
        );
        log.error({ err: error.message }, 'postback address refused');
        throw new UnrecoverableError(error.message);
      }
      const message = (error as Error).message.slice(0, 200);
      await record({ result: 'failed', error: message }, { result: 'failed', errorKind: errorKindOf(error) });
      logFailure(log, job, { err: message });
      throw error;
    }
    if (status < 200 || status >= 300) {
      await record({ result: 'failed', status }, { result: 'failed', status });
      logFailure(log, job, { status });
      throw new Error(`postback answered ${status}`);
    }
    await record({ result: 'delivered', status }, { result: 'delivered', status });
    log.info({ status, event }, 'postback delivered');
    return { delivered: status };
  };
}

/**
 * A buyer's return of the lead took effect (ADR 0020, "Returns and conversions"). The affiliate was paid for it
 * when its postback pays on a sale and that postback was delivered: its payout is then reversed (a
 * `payout_reversed` event, written once however often the job runs), and the affiliate is told only when it
 * lists `returned` among its events (it accepts reversals).
 */
async function reversePayout(
  deps: AffiliatePostbackDeps,
  leadId: string,
  affiliate: string,
  postback: AffiliatePostbacks[string],
): Promise<{ amount: number } | { skipped: string }> {
  const paid = postback.payout.sold;
  const deliveries = await deps.store.postbacks.list(leadId);
  const told = deliveries.some((d) => d.event === 'sold' && d.result === 'delivered');
  if (paid === undefined || paid === 0 || !told) return { skipped: 'affiliate was not paid for the lead' };
  await deps.events?.append({
    eventId: `${leadId}.payout_reversed`,
    leadId,
    at: new Date(deps.now()).toISOString(),
    type: 'payout_reversed',
    affiliate,
    amount: paid,
  });
  if (!postback.events.includes('returned')) return { skipped: 'affiliate takes no reversals' };
  return { amount: paid };
}

/**
 * A manager reversed the lead's approved return (ADR 0021): the payout taken back (a `payout_reversed` event in
 * the system of record, or a `returned` postback attempted, which follows it) is restored (`payout_restored`,
 * once), and the affiliate is told only when it was told of the reversal (a `returned` postback delivered).
 */
async function restorePayout(
  deps: AffiliatePostbackDeps,
  leadId: string,
  affiliate: string,
  postback: AffiliatePostbacks[string],
  payoutReversed: boolean,
): Promise<{ amount: number } | { skipped: string }> {
  const paid = postback.payout.sold;
  const deliveries = await deps.store.postbacks.list(leadId);
  const tellings = deliveries.filter((d) => d.event === 'returned');
  if (paid === undefined || (!payoutReversed && tellings.length === 0)) {
    return { skipped: 'payout was not reversed' };
  }
  await deps.events?.append({
    eventId: `${leadId}.payout_restored`,
    leadId,
    at: new Date(deps.now()).toISOString(),
    type: 'payout_restored',
    affiliate,
    amount: paid,
  });
  if (!tellings.some((d) => d.result === 'delivered'))
    return { skipped: 'affiliate was not told of the reversal' };
  return { amount: paid };
}

/** A failed attempt is a warning while retries remain; the last one needs a person, so it is an error. */
function logFailure(log: Logger, job: Job, details: Record<string, unknown>): void {
  const attempt = job.attemptsMade + 1;
  if (attempt >= (job.opts.attempts ?? 1)) log.error({ ...details, attempt }, 'postback failed for good');
  else log.warn({ ...details, attempt }, 'postback failed, will retry');
}
