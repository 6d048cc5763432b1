import type { Job } from 'bullmq';
import type { Logger } from 'pino';
import { LEAD_STATUS } from '@funnel/contracts/lender-network';
import type { LeadOutcome } from '@funnel/contracts/lead-outcome';
import { isBidLive } from '@funnel/contracts/ping-post-network';
import type { LeadRecord, NewOutcome } from '@funnel/lead-store/lead-store';
import type { AttemptAnswer } from '../buyers/buyer-adapter.js';
import { dayIn } from '@funnel/server-runtime/buyer-caps';
import { planWalk, traitsOf, type WalkStep } from '../buyers/buyer-eligibility.js';
import { decide, noLender, type DecisionPolicy } from '../buyers/decision.js';
import { RetryableLenderError } from '../buyers/lender-errors.js';
import { BID_MARGIN_MS } from '../buyers/ping-post-adapter.js';
import type { AttemptRecord, AttemptResult } from './attempt-record.js';
import { planAuction, withoutBrokenBuyers, type AuctionDeps } from './auction.js';
import { bulkheadWaits, clearWaits, parkPoll, parkWait } from './poll-due.js';
import { bulkheadWaitMs, nextBuyerIndex, walkEnd, walkNeedsMs } from './walk-rules.js';
import { WaterfallCursors } from './waterfall-cursor.js';

/** What a run of a lead's submission job ended with, kept as the job's return value (walk or single lender). */
export type SubmitLeadResult = { outcome: LeadOutcome['outcome'] } | { skipped: string };

/** The buyers file, the adapters, each buyer's share of this worker's calls (ADR 0017), the cursors, the
 * buyers' learned records (an auction's ranking, ADR 0020) and the clock. */
export interface WaterfallDeps extends AuctionDeps {
  policy: DecisionPolicy;
  /**
   * Told of every attempt once it has ended, before the walk moves on; may be told twice of the same attempt
   * after a crash (its `attemptKey` makes it one). The system of record and the metrics hang here.
   */
  onAttempt?: (attempt: AttemptRecord) => Promise<void>;
  /** Told each time a lead finds its buyer's share full, and whether it waits or moves on (the metrics). */
  onSaturated?: (buyer: string, action: 'waited' | 'moved_on') => void;
}

/** The least time worth giving an attempt, and what is kept back from the deadline for recording the outcome. */
const MIN_ATTEMPT_MS = 1000;
const DEADLINE_MARGIN_MS = 500;
/** An attempt found posting after a crash is asked again with its own key for at least this long. */
const REPLAY_MS = 2000;

/** The buyer whose answer decided a lead, and when that answer was received (ms since the epoch). */
export interface Decision {
  buyer: string;
  at: number;
}

export interface WaterfallRun {
  job: Job;
  token: string | undefined;
  lead: LeadRecord;
  deadline: number;
  /** Stores the outcome and publishes it; `decision` feeds the per-buyer decision → outcome metric. */
  finish: (outcome: NewOutcome, decision?: Decision) => Promise<SubmitLeadResult>;
  log: Logger;
  noLenderFallbackUrl: string | undefined;
}

/**
 * Walks a lead's buyers (issue 13, ADR 0012). The walk is a cursor in Redis: the planned steps (buyer and
 * price floor, in tier order; in an auction, the ranking its ping round made, ADR 0020), the step being tried
 * and its state. Each step is one attempt with its own
 * idempotency key (lead id and step number); a run after a crash re-asks the same step with the same key, so a
 * buyer never sees a lead twice at the same step, and a pending lead-service attempt is pinged, not re-posted.
 * Every attempt gets a time budget that ends before the lead's deadline; sold ends the walk, anything else moves
 * on, the deadline ends it as no lender.
 */
export async function runWaterfall(deps: WaterfallDeps, run: WaterfallRun): Promise<SubmitLeadResult> {
  const { lead, deadline, log } = run;
  const leadId = lead.id;
  let cursor =
    (await deps.cursors.get(leadId)) ??
    (await deps.cursors.init(
      leadId,
      await planFor(deps, lead, deadline),
      Math.max(deadline - deps.now(), 0) + 24 * 3600_000,
    ));
  // The decline received in this run that the walk may end on (reset by any other way a step ends).
  let declined: Decision | undefined;

  for (;;) {
    // The lead ended outside the walk (its deadline passed, or its job failed for good): nothing more to try.
    if (cursor.state === 'closed') return { skipped: 'walk closed' };
    if (cursor.state === 'done' && cursor.result) {
      // A sold status always decides (a partner offer by its host; without an address, a sale all the same).
      const sold = decide({ status: LEAD_STATUS.SOLD, redirect_url: cursor.result.redirectUrl }, deps.policy);
      const { buyer, decidedAt } = cursor.result;
      // The answer's time is kept on the cursor, so a run after a crash still measures from it.
      return run.finish(
        sold ?? { outcome: 'sold' },
        decidedAt !== undefined ? { buyer, at: decidedAt } : undefined,
      );
    }
    const step = cursor.plan[cursor.index];
    if (!step) {
      const end = walkEnd(cursor, run.noLenderFallbackUrl);
      return run.finish(end, end.outcome === 'rejected' ? declined : undefined);
    }
    const buyer = deps.buyers.buyers.find((b) => b.id === step.buyer);
    const adapter = deps.adapters.get(step.buyer);
    const attemptKey = WaterfallCursors.attemptKey(leadId, cursor.index);
    const now = deps.now();
    const record = (result: AttemptResult, extra: Partial<AttemptRecord> = {}): AttemptRecord => ({
      leadId,
      attemptKey,
      index: cursor.index,
      buyer: step.buyer,
      tier: buyer?.tier ?? 0,
      ...(step.floor !== undefined ? { floor: step.floor } : {}),
      result,
      latencyMs: Math.max(0, deps.now() - (cursor.startedAt ?? now)),
      fieldErrors: [],
      at: new Date(deps.now()).toISOString(),
      ...(step.ranking ? { ranking: step.ranking } : {}),
      ...extra,
    });
    // `next-buyer`: past every later step of this buyer (the rest of its ladder; in an auction, wherever the
    // ranking put them).
    const moveOn = async (
      result: AttemptResult,
      extra: Partial<AttemptRecord> = {},
      next: number | 'next-buyer' = cursor.index + 1,
      rejectUrl = '',
    ) => {
      declined = undefined;
      const ended = record(result, extra);
      await deps.onAttempt?.(ended);
      if (buyer) await deps.breakers?.record(buyer, ended);
      await deps.cursors.advance(leadId, cursor.index, {
        next: next === 'next-buyer' ? nextBuyerIndex(cursor, step.buyer) : next,
        release: cursor.state !== 'ready',
        rejectUrl,
        declined: result === 'rejected' || result === 'invalid',
        ...(next === 'next-buyer' ? { skipBuyer: step.buyer } : {}),
      });
      cursor = (await deps.cursors.get(leadId)) ?? cursor;
    };
    // This step and the rest of its buyer's ladder, with no attempt and no record of one.
    const passOver = async () => {
      const next = nextBuyerIndex(cursor, step.buyer);
      await deps.cursors.advance(leadId, cursor.index, { next, release: false, skipBuyer: step.buyer });
      cursor = (await deps.cursors.get(leadId)) ?? cursor;
    };
    if (cursor.state === 'ready' && deps.isPaused?.(step.buyer)) {
      // Paused since the walk was planned (ADR 0022): no new attempt, no record of one; the rest of its ladder
      // is passed over too.
      await passOver();
      continue;
    }
    if (cursor.state === 'ready' && cursor.skipped.includes(step.buyer)) {
      // A later step of a buyer that refused the lead's fields or whose cap is full: no attempt.
      await deps.cursors.advance(leadId, cursor.index, { next: cursor.index + 1, release: false });
      cursor = (await deps.cursors.get(leadId)) ?? cursor;
      continue;
    }

    if (now >= deadline - DEADLINE_MARGIN_MS) {
      if (cursor.state !== 'ready') await moveOn('timeout', {}, cursor.plan.length);
      return run.finish(noLender('deadline', run.noLenderFallbackUrl));
    }
    if (!buyer || !adapter) {
      // The buyer left the file since the walk was planned: its steps are skipped.
      log.warn({ buyer: step.buyer }, 'buyer of a planned step is no longer configured');
      await moveOn('error');
      continue;
    }
    if (cursor.state === 'ready' && step.bid && !isBidLive(step.bid, now, BID_MARGIN_MS)) {
      // An auction's bid that expired while better candidates were tried (ADR 0020): skipped, nothing posted,
      // no place taken. A bid already posted (a run after a crash) is posted again whatever its time.
      await moveOn('error', { errorKind: 'bid_expired' });
      continue;
    }

    if (cursor.state === 'pending' && now >= (cursor.endsAt ?? now)) {
      // A pending attempt past its budget ends here, with or without a place at its buyer.
      await moveOn('timeout');
      continue;
    }
    // The buyer's share of this worker (ADR 0017): a place is held from before the attempt starts (so no cap
    // place is reserved while waiting) until its call has answered.
    const place = deps.bulkheads.tryTake(buyer.id);
    if (!place) {
      const waitMs = bulkheadWaitMs(bulkheadWaits(run.job.data));
      const slack = deadline - DEADLINE_MARGIN_MS - (now + waitMs) - walkNeedsMs(cursor, deps.buyers.buyers);
      if (cursor.state === 'ready' && slack < 0) {
        // Waiting longer would spend time the rest of the walk may need (this attempt's budget, or a later
        // buyer's): the lead moves on, as from a full cap (no call was made, no cap place was taken).
        deps.onSaturated?.(buyer.id, 'moved_on');
        await moveOn('capped', { errorKind: 'saturated' }, 'next-buyer');
        continue;
      }
      // Waits off the worker's job slots, and tries again shortly; an attempt already begun (after a crash, or
      // pending) keeps its step: its own budget and the deadline bound the wait.
      deps.onSaturated?.(buyer.id, 'waited');
      return parkWait(run.job, run.token, Math.min(now + waitMs, deadline));
    }
    if (bulkheadWaits(run.job.data) > 0) await clearWaits(run.job);

    let endsAt: number;
    let answer: AttemptAnswer;
    let answeredAt: number;
    try {
      if (cursor.state === 'ready' && deps.breakers && !(await deps.breakers.admit(buyer))) {
        // Its breaker opened since the walk was planned, or another attempt holds its trial (ADR 0022): passed
        // over like a paused buyer, with no attempt and no record of one.
        await passOver();
        continue;
      }
      if (cursor.state === 'ready') {
        const budgetMs = Math.min(buyer.timeouts.attemptMs, deadline - DEADLINE_MARGIN_MS - now);
        if (budgetMs < MIN_ATTEMPT_MS) return run.finish(noLender('deadline', run.noLenderFallbackUrl));
        const caps = deps.cursors.capKeys(buyer.id, now, dayIn(deps.buyers.timeZone, now));
        const begun = await deps.cursors.begin(
          leadId,
          cursor.index,
          { startedAt: now, endsAt: now + budgetMs },
          { ...caps, perHour: buyer.caps.perHour, perDay: buyer.caps.perDay },
        );
        if (begun === 'capped') {
          // A full cap skips the buyer's whole ladder: a lower floor does not make room.
          await moveOn('capped', {}, 'next-buyer');
          continue;
        }
        cursor = (await deps.cursors.get(leadId)) ?? cursor;
        if (begun === 'stale') continue;
      }

      endsAt = cursor.endsAt ?? now;
      try {
        if (cursor.state === 'pending' && cursor.upstreamLeadId) {
          if (now >= endsAt) {
            await moveOn('timeout');
            continue;
          }
          answer = await adapter.check(
            lead,
            { upstreamLeadId: cursor.upstreamLeadId, checkKey: cursor.checkKey ?? attemptKey },
            endsAt - deps.now(),
          );
        } else {
          // Posting: the first time, or again after a crash with the same key (the buyer answers the same).
          // The budget runs from the attempt's start (`endsAt`), so the time spent recording it counts too.
          const sent = deps.now();
          const budgetMs = Math.min(Math.max(endsAt - sent, REPLAY_MS), deadline - DEADLINE_MARGIN_MS - sent);
          answer = await adapter.post(lead, { key: attemptKey, floor: step.floor, budgetMs, bid: step.bid });
        }
        answeredAt = deps.now();
      } catch (error) {
        if (!(error instanceof RetryableLenderError)) throw error;
        log.warn({ buyer: buyer.id, err: error.message }, 'buyer call failed');
        if (cursor.state === 'pending' && deps.now() < endsAt) {
          // A failed ping is tried again at the next tick, within the attempt's budget.
          return parkPoll(run.job, run.token, Math.min(deps.now() + buyer.timeouts.pollMs, endsAt, deadline));
        }
        // Never sent for want of a connection in time is a timeout too; the kind says which.
        const timedOut = error.kind === 'timeout' || error.kind === 'queue_timeout';
        await moveOn(timedOut ? 'timeout' : 'error', { errorKind: error.kind });
        continue;
      }
    } finally {
      place();
    }

    if (answer.kind === 'pending') {
      if (cursor.state === 'posting') {
        await deps.cursors.pending(
          leadId,
          cursor.index,
          answer.pending.upstreamLeadId,
          answer.pending.checkKey,
        );
      }
      if (deps.now() >= endsAt) {
        cursor = (await deps.cursors.get(leadId)) ?? cursor;
        await moveOn('timeout');
        continue;
      }
      return parkPoll(run.job, run.token, Math.min(deps.now() + buyer.timeouts.pollMs, endsAt, deadline));
    }
    if (answer.kind === 'sold') {
      const sold = {
        buyer: buyer.id,
        price: answer.price,
        ...(answer.redirectUrl ? { redirectUrl: answer.redirectUrl } : {}),
        decidedAt: answeredAt,
      };
      await deps.onAttempt?.(record('sold', { price: answer.price }));
      await deps.breakers?.record(buyer, { result: 'sold' });
      await deps.cursors.sold(leadId, cursor.index, sold);
      cursor = (await deps.cursors.get(leadId)) ?? cursor;
      log.info({ buyer: buyer.id, price: answer.price }, 'lead sold');
      continue;
    }
    // Field errors do not go away at a lower floor: the rest of this buyer's ladder is skipped.
    await moveOn(
      answer.kind,
      { fieldErrors: answer.fieldErrors },
      answer.kind === 'invalid' ? 'next-buyer' : cursor.index + 1,
      (answer.kind === 'rejected' && answer.rejectUrl) || '',
    );
    declined = { buyer: buyer.id, at: answeredAt };
  }
}

/** A lead's plan: the walk by tier and ladder, or an auction's ranking after its ping round (ADR 0020). */
async function planFor(deps: WaterfallDeps, lead: LeadRecord, deadline: number): Promise<WalkStep[]> {
  if (deps.buyers.mode === 'auction') return planAuction(deps, lead, deadline);
  const buyers = deps.buyers.buyers.filter((buyer) => !deps.isPaused?.(buyer.id));
  return planWalk(await withoutBrokenBuyers(deps, buyers), traitsOf(lead), deps.buyers.timeZone, deps.now());
}
