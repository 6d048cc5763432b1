import { DelayedError, UnrecoverableError, type Job } from 'bullmq';
import type { Logger } from 'pino';
import { CLIENT_TO_SERVER as server } from '@funnel/contracts/fields';
import { LeadJobSchema, type LeadJob } from '@funnel/contracts/jobs';
import { isFinalOutcome } from '@funnel/contracts/lead-outcome';
import { buildSubmissionPayload, type SubmittableLead } from '@funnel/contracts/lender-network';
import { SCREENED_OUT_REASON, type ScreeningVerdict } from '@funnel/contracts/screening';
import { TrackingSchema } from '@funnel/contracts/tracking';
import type { LeadRecord, LeadStore, NewOutcome } from '@funnel/lead-store/lead-store';
import { isNotReplicated } from '@funnel/server-runtime/replica-wait';
import { activeTraceparent, inSpan } from '@funnel/server-runtime/tracing';
import { buildOrRefuse, submissionContextOf } from '../buyers/buyer-payload-context.js';
import { decide, noLender, type DecisionPolicy } from '../buyers/decision.js';
import type { LenderClient } from '../buyers/lender-client.js';
import { FinalLenderError, RetryableLenderError } from '../buyers/lender-errors.js';
import type { ContactScreen } from '../screening/contact-screen.js';
import { parkPoll, pollLatenessSeconds } from '../waterfall/poll-due.js';
import {
  runWaterfall,
  type Decision,
  type SubmitLeadResult,
  type WaterfallDeps,
} from '../waterfall/waterfall.js';

export interface SubmitLeadDeps {
  store: LeadStore;
  lender: Pick<LenderClient, 'submit' | 'ping'>;
  policy: DecisionPolicy;
  pollIntervalMs: number;
  noLenderFallbackUrl?: string | undefined;
  now: () => number;
  logger: Logger;
  /**
   * How long a post claim holds: the post's own timeouts and a little more. It must not outlive the job's lock
   * by much, or a crashed worker's leads wait for it to lapse after the job has already come back.
   */
  postClaimMs: number;
  /**
   * The longest a post may take from the moment it asks for a connection (connect and header timeouts); the
   * lead's deadline cuts it shorter. Under the post claim, so no post outlives its claim.
   */
  postBudgetMs: number;
  /**
   * Metrics hooks: a final outcome this run stored; how late a parked poll started after the due time stored
   * with its job (single network and waterfall alike); and, per buyer, how long from the buyer's deciding
   * answer being received to the outcome stored and its follow-ups published.
   */
  observe?: {
    decided(outcome: string, submitToDecisionSeconds: number): void;
    pollLateness(seconds: number): void;
    decisionToOutcome(buyer: string, seconds: number): void;
  };
  /** With a buyers file: the buyers' waterfall (ADR 0012) instead of the one lender network. */
  waterfall?: WaterfallDeps | undefined;
  /** Called once the lead's outcome is final (again on a retry: it must be idempotent), e.g. partner webhooks. */
  onFinalOutcome: (leadId: string) => Promise<void>;
  /**
   * Screening before any buyer (issue 41, ADR 0029): each lead's contact is screened once, its verdict recorded
   * (`record`, the system of record's `screened` event) and kept on the lead; a blocked lead ends rejected.
   */
  screening?: { screen: ContactScreen; record(leadId: string, verdict: ScreeningVerdict): Promise<void> };
}

/**
 * One run of a lead's submission job. The job holds only the lead id; where the lead stands lives on the lead
 * (submission state, upstream id, outcome), so a run picks up wherever the previous one stopped, on any worker.
 *
 * - Not posted yet: post once (claimed, idempotency key = our lead id). Network failures throw so BullMQ retries
 *   with backoff; when retries or time run out the lead ends as no lender.
 * - Posted and pending: poll every `pollIntervalMs` by moving the job to the delayed set (the "process step jobs"
 *   pattern: no worker sleeps) until a final status or the persisted deadline.
 */
export function createSubmitLeadProcessor(deps: SubmitLeadDeps) {
  const run = createRun(deps);
  return async function processSubmitLead(job: Job, token?: string): Promise<SubmitLeadResult> {
    try {
      return await run(job, token);
    } catch (error) {
      if (!isNotReplicated(error)) throw error;
      // A write its replicas did not confirm (a failover under way, docs/adr/0018): nothing was acted on after
      // it. Run again shortly, from whatever the lead then says, without spending one of the job's attempts.
      deps.logger.warn({ jobId: job.id, err: (error as Error).message }, 'write not replicated; retrying');
      await job.moveToDelayed(deps.now() + NOT_REPLICATED_RETRY_MS, token);
      throw new DelayedError();
    }
  };
}

/** How soon a run whose write was not replicated runs again. */
const NOT_REPLICATED_RETRY_MS = 1000;

function createRun(deps: SubmitLeadDeps) {
  /** Screens the lead, records the verdict, then keeps it on the lead: a run after a crash between the two screens again. */
  async function screen(
    screening: NonNullable<SubmitLeadDeps['screening']>,
    lead: LeadRecord,
  ): Promise<ScreeningVerdict> {
    const fields = lead.fields as Record<string, unknown>;
    const verdict = await screening.screen.screen({
      leadId: lead.id,
      phone: String(fields[server.phone] ?? ''),
      email: String(fields[server.email] ?? ''),
      ip: lead.consent?.ip,
    });
    await screening.record(lead.id, verdict);
    await deps.store.updateSubmission(lead.id, { screening: verdict });
    return verdict;
  }

  return async function runSubmitLead(job: Job, token?: string): Promise<SubmitLeadResult> {
    const lateness = pollLatenessSeconds(job.data, job.attemptsMade, deps.now());
    if (lateness !== undefined) deps.observe?.pollLateness(lateness);
    const { leadId } = LeadJobSchema.parse(job.data);
    const log = deps.logger.child({ leadId, jobId: job.id });
    const lead = await deps.store.get(leadId);
    if (!lead) return { skipped: 'lead no longer exists' };
    if (lead.outcome && isFinalOutcome(lead.outcome.outcome)) {
      // A run that stored the outcome but died before the follow-up gets it done here.
      await deps.onFinalOutcome(leadId);
      return { outcome: lead.outcome.outcome };
    }
    const submission = lead.submission;
    if (!submission) throw new UnrecoverableError('lead was never submitted');

    // The outcome is published with this span's trace, so the BFF's push to the browser joins the lead's trace.
    const finish = (outcome: NewOutcome, decision?: Decision): Promise<SubmitLeadResult> =>
      inSpan(
        'outcome publish',
        { attributes: { 'funnel.lead.id': leadId, 'funnel.outcome': outcome.outcome } },
        () => publish(outcome, decision),
      );
    const publish = async (outcome: NewOutcome, decision?: Decision): Promise<SubmitLeadResult> => {
      const stored = await deps.store.setOutcome(leadId, outcome, activeTraceparent());
      log.info({ outcome: stored?.outcome, reason: outcome.reason }, 'lead decided');
      const ours =
        stored !== undefined && isFinalOutcome(stored.outcome) && stored.outcome === outcome.outcome;
      if (ours) {
        deps.observe?.decided(stored.outcome, (deps.now() - Date.parse(submission.submittedAt)) / 1000);
      }
      if (stored && isFinalOutcome(stored.outcome)) await deps.onFinalOutcome(leadId);
      if (ours && decision) {
        deps.observe?.decisionToOutcome(decision.buyer, Math.max(0, deps.now() - decision.at) / 1000);
      }
      return stored ? { outcome: stored.outcome } : { skipped: 'lead no longer exists' };
    };
    const deadline = Date.parse(submission.deadlineAt);
    const screened = submission.screening ?? (deps.screening && (await screen(deps.screening, lead)));
    if (screened && screened.verdict !== 'pass') {
      log.info(
        { verdict: screened.verdict, reasons: screened.reasons, unchecked: screened.unchecked },
        'screened',
      );
    }
    if (screened?.verdict === 'block') return finish({ outcome: 'rejected', reason: SCREENED_OUT_REASON });
    if (deps.waterfall) {
      return runWaterfall(deps.waterfall, {
        job,
        token,
        // The buyers' filters see the verdict just given (ADR 0030), which the lead read above predates.
        lead: screened ? { ...lead, submission: { ...submission, screening: screened } } : lead,
        deadline,
        finish,
        log,
        noLenderFallbackUrl: deps.noLenderFallbackUrl,
      });
    }
    if (deps.now() >= deadline) return finish(noLender('deadline', deps.noLenderFallbackUrl));

    try {
      if (!submission.upstreamLeadId) {
        if (!(await deps.store.claimPost(leadId, deps.postClaimMs))) {
          log.warn('another worker is posting this lead; checking again shortly');
        } else {
          try {
            // The post's budget covers its wait for a connection too, and ends by the lead's deadline.
            const budgetMs = Math.min(deps.postBudgetMs, deadline - deps.now());
            const answer = await deps.lender.submit(payloadFor(lead), budgetMs);
            const answeredAt = deps.now();
            log.info({ status: answer.data.status }, 'lead posted');
            const decided = decide({ ...answer, status: answer.data.status }, deps.policy);
            if (decided) return await finish(decided, { buyer: LENDER_NETWORK, at: answeredAt });
            await deps.store.updateSubmission(leadId, {
              upstreamLeadId: answer.data.lead_id,
              checkKey: leadId,
            });
          } finally {
            await deps.store.releasePost(leadId);
          }
        }
      } else {
        const answer = await deps.lender.ping({
          lead_id: submission.upstreamLeadId,
          checkKey: submission.checkKey ?? leadId,
          utm_source: TrackingSchema.parse(lead.tracking).utmSource ?? '',
        });
        const answeredAt = deps.now();
        log.debug({ status: answer.data.data.status }, 'lead polled');
        const decided = decide(answer.data.data, deps.policy);
        if (decided) return finish(decided, { buyer: LENDER_NETWORK, at: answeredAt });
      }
    } catch (error) {
      if (error instanceof FinalLenderError) {
        log.warn({ statusCode: error.statusCode }, 'lender network refused the lead');
        return finish(
          { outcome: 'rejected', reason: `upstream_${error.statusCode}` },
          { buyer: LENDER_NETWORK, at: deps.now() },
        );
      }
      if (!(error instanceof RetryableLenderError)) throw error;
      log.warn({ err: error.message, attempt: job.attemptsMade + 1 }, 'lender network call failed');
      if (!submission.upstreamLeadId) {
        // A post cut short by the deadline ends the lead now, not after a retry's backoff.
        if (deps.now() >= deadline) return finish(noLender('deadline', deps.noLenderFallbackUrl));
        const lastAttempt = job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
        if (lastAttempt) return finish(noLender('unreachable', deps.noLenderFallbackUrl));
        // BullMQ retries the post with exponential backoff and the same idempotency key.
        throw error;
      }
      // A failed poll is retried at the next tick; the deadline bounds how long that can go on.
    }

    return parkPoll(job, token, Math.min(deps.now() + deps.pollIntervalMs, deadline));
  };
}

/** The `buyer` label of the one lender network (no buyers file) in the decision → outcome metric. */
export const LENDER_NETWORK = 'lender-network';

/**
 * What happens to a lead whose submission job failed for good (an unexpected error after every retry): it ends as
 * "no lender", with the follow-ups of a final outcome, so no borrower waits forever.
 */
export function settleFailedSubmission(deps: Pick<SubmitLeadDeps, 'store' | 'onFinalOutcome'>) {
  return async function noLenderAfterFailure({ leadId }: LeadJob): Promise<void> {
    await deps.store.setOutcome(leadId, { outcome: 'no_lender', reason: 'internal_error' });
    await deps.onFinalOutcome(leadId);
  };
}

/** The lender payload; a lead that cannot make one is our fault, and retrying will not fix it. */
function payloadFor(lead: LeadRecord) {
  return buildOrRefuse(() =>
    buildSubmissionPayload(lead.fields as unknown as SubmittableLead, submissionContextOf(lead)),
  );
}
