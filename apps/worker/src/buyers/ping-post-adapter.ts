import { createHash } from 'node:crypto';
import { pingPostDeadlines, type Buyer } from '@funnel/contracts/buyers';
import type { SubmittableLead } from '@funnel/contracts/lender-network';
import {
  BidResponseSchema,
  PING_POST_PATHS,
  PostResponseSchema,
  bidOf,
  buildPingPayload,
  buildPostPayload,
  isBidLive,
  mapPingPostErrors,
} from '@funnel/contracts/ping-post-network';
import type { LeadRecord } from '@funnel/lead-store/lead-store';
import type {
  AdapterOptions,
  AttemptAnswer,
  AttemptRequest,
  BuyerAdapter,
  CallObserver,
  HeldBid,
} from './buyer-adapter.js';
import { buildOrRefuse, qualityBandOf, submissionContextOf } from './buyer-payload-context.js';
import { BudgetedPool, DEFAULT_MAX_RESPONSE_BYTES, type CallBudget } from './budgeted-pool.js';
import { RetryableLenderError, retryableStatusKind } from './lender-errors.js';

/** What the buyer is not told of the ping's deadline: the time its bid takes to travel back. */
const PING_WAY_BACK_MS = 100;
/** A bid must outlive the post's trip to the buyer by this much, or it is not posted (ADR 0020). */
export const BID_MARGIN_MS = 250;

/**
 * The ping/post protocol (issue 27, ADR 0020): an anonymous ping answered by a bid or none, then the full lead
 * posted with the bid's id. The two calls are separate methods so an auction can ping many buyers before it
 * posts to any; until it exists, one waterfall attempt at a ping-post buyer is {@link post}: ping, and post the
 * bid when it reaches the step's floor and is still live, all within the attempt's budget.
 */
export class PingPostAdapter implements BuyerAdapter {
  readonly #pool: BudgetedPool;
  readonly #base: string;

  constructor(
    readonly buyer: Buyer,
    private readonly observe?: CallObserver,
    options: AdapterOptions = {},
    /** The wall clock bids' expiry is read against (ms since the epoch). */
    private readonly now: () => number = Date.now,
  ) {
    const url = new URL(buyer.baseUrl);
    this.#base = url.pathname.replace(/\/$/, '');
    this.#pool = new BudgetedPool(url.origin, {
      connections: options.connections ?? buyer.concurrency,
      connectTimeoutMs: buyer.timeouts.connectMs,
      maxResponseBytes: options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES,
      ...(options.addresses ? { addresses: options.addresses } : {}),
    });
  }

  /**
   * One waterfall attempt: no bid, or a bid below the step's floor, is a rejection; a bid that expires before
   * it can be posted is a failed attempt (`bid_expired`); otherwise the post's answer decides, at the bid's price.
   * An auction's attempt comes with the bid its ping round won: it is posted as is (the auction checked it was
   * live before it began the attempt; a post replayed after a crash gets the buyer's first answer whatever the
   * bid's time).
   */
  async post(lead: LeadRecord, attempt: AttemptRequest): Promise<AttemptAnswer> {
    const startedAt = performance.now();
    const { pingMs, postMs } = pingPostDeadlines(this.buyer);
    if (attempt.bid) return this.postBid(lead, attempt.bid, attempt.key, Math.min(postMs, attempt.budgetMs));
    const bid = await this.ping(lead, attempt.key, Math.min(pingMs, attempt.budgetMs));
    if (!bid || (attempt.floor !== undefined && bid.price < attempt.floor)) {
      return { kind: 'rejected', fieldErrors: [] };
    }
    if (!isBidLive(bid, this.now(), BID_MARGIN_MS)) {
      throw new RetryableLenderError('the bid expired before it could be posted', 'bid_expired');
    }
    const left = attempt.budgetMs - (performance.now() - startedAt);
    return this.postBid(lead, bid, attempt.key, Math.min(postMs, left));
  }

  /**
   * Pings the buyer with the lead's non-identifying fields, under an opaque id derived from `key` (the same
   * attempt pinged again after a crash sends the same id). Resolves with the bid, or undefined for no bid.
   */
  async ping(lead: LeadRecord, key: string, budgetMs: number): Promise<HeldBid | undefined> {
    const budget: CallBudget = { startedAt: performance.now(), budgetMs };
    const fields = lead.fields as unknown as SubmittableLead;
    const context = submissionContextOf(lead);
    const pingId = pingIdOf(key);
    const today = new Date(this.now()).toISOString().slice(0, 10);
    const qualityBand = qualityBandOf(lead);
    const build = (maxResponseMs: number) =>
      buildPingPayload(fields, context, { pingId, maxResponseMs, today, qualityBand });
    const pinged = buildOrRefuse(() => build(0)).Fields;
    const answer = await this.#call('ping', budget, (remainingMs) => {
      const maxResponseMs = remainingMs - PING_WAY_BACK_MS;
      return maxResponseMs > 0 ? build(maxResponseMs) : undefined;
    });
    if (answer === 'refused') return undefined;
    const parsed = BidResponseSchema.safeParse(answer);
    if (!parsed.success) {
      throw new RetryableLenderError(
        `POST ${PING_POST_PATHS.ping} answered an unexpected shape`,
        'malformed',
      );
    }
    const bid = bidOf(parsed.data);
    return bid && { ...bid, pinged };
  }

  /** Posts the full lead for `bid` with the attempt's own idempotency key; the answer is final. */
  async postBid(lead: LeadRecord, bid: HeldBid, key: string, budgetMs: number): Promise<AttemptAnswer> {
    const budget: CallBudget = { startedAt: performance.now(), budgetMs };
    const payload = buildOrRefuse(() =>
      buildPostPayload(lead.fields as unknown as SubmittableLead, submissionContextOf(lead), {
        idempotencyKey: key,
        bidId: bid.bidId,
        pinged: bid.pinged,
      }),
    );
    const answer = await this.#call('post', budget, () => payload);
    if (answer === 'refused') return { kind: 'rejected', fieldErrors: [] };
    const parsed = PostResponseSchema.safeParse(answer);
    if (!parsed.success) {
      throw new RetryableLenderError(
        `POST ${PING_POST_PATHS.post} answered an unexpected shape`,
        'malformed',
      );
    }
    const { Result, RedirectURL, LeadID, Errors } = parsed.data;
    if (Result === 'Accepted') {
      // The bid is the price agreed: what the buyer said it pays when it bid.
      return {
        kind: 'sold',
        price: bid.price,
        ...(RedirectURL ? { redirectUrl: RedirectURL } : {}),
        ...(LeadID ? { upstreamLeadId: LeadID } : {}),
      };
    }
    if (Result === 'Error') return { kind: 'invalid', fieldErrors: mapPingPostErrors(Errors) };
    return { kind: 'rejected', fieldErrors: mapPingPostErrors(Errors) };
  }

  /** One call; its JSON answer (undefined if not JSON), or 'refused' for a 4xx other than 429. */
  async #call(
    endpoint: 'ping' | 'post',
    budget: CallBudget,
    body: (remainingMs: number) => object | undefined,
  ): Promise<unknown> {
    const path = PING_POST_PATHS[endpoint];
    let result = 'ok';
    try {
      const response = await this.#pool.request(`POST ${path}`, budget, (remainingMs = 0) => {
        const payload = body(remainingMs);
        if (!payload) return undefined;
        return {
          method: 'POST',
          path: `${this.#base}${path}`,
          headers: {
            accept: 'application/json',
            'content-type': 'application/json',
            ...(this.buyer.apiKey ? { authorization: `Bearer ${this.buyer.apiKey}` } : {}),
          },
          body: JSON.stringify(payload),
        };
      });
      if (response.statusCode === 429 || response.statusCode >= 500) {
        throw new RetryableLenderError(
          `POST ${path} answered ${response.statusCode}`,
          retryableStatusKind(response.statusCode),
        );
      }
      if (response.statusCode >= 400) {
        result = 'http_4xx';
        return 'refused';
      }
      return safeJson(response.text);
    } catch (error) {
      if (error instanceof RetryableLenderError) result = error.kind;
      throw error;
    } finally {
      this.observe?.(this.buyer.id, endpoint, result, (performance.now() - budget.startedAt) / 1000);
    }
  }

  check(): Promise<AttemptAnswer> {
    throw new Error('a ping-post attempt is never pending');
  }

  close(): Promise<void> {
    return this.#pool.close();
  }
}

/** The ping's id for an attempt key: opaque, so a ping never carries our lead id, and stable across a crash. */
export function pingIdOf(attemptKey: string): string {
  return createHash('sha256').update(`ping:${attemptKey}`).digest('base64url').slice(0, 22);
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
