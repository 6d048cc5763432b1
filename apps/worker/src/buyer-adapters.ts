import { Pool } from 'undici';
import { ZodError } from 'zod';
import { UnrecoverableError } from 'bullmq';
import type { Buyer } from '@funnel/contracts/buyers';
import {
  LEAD_STATUS,
  buildSubmissionPayload,
  mapLenderFieldErrors,
  type SubmittableLead,
} from '@funnel/contracts/lender-network';
import {
  SYNC_POST_PATH,
  SyncPostResponseSchema,
  buildSyncPostPayload,
  mapSyncPostErrors,
  type MappedFieldError,
} from '@funnel/contracts/sync-post-network';
import { TrackingSchema } from '@funnel/contracts/tracking';
import type { LeadRecord } from '@funnel/lead-store/lead-store';
import { LenderClient } from './lender-client.js';
import { FinalLenderError, RetryableLenderError } from './lender-errors.js';

/** One attempt at one buyer: its own idempotency key, its price floor (if the protocol has one) and its time. */
export interface AttemptRequest {
  key: string;
  floor: number | undefined;
  budgetMs: number;
}

/** Where a pending attempt is asked again (lead-service). */
export interface PendingRef {
  upstreamLeadId: string;
  checkKey: string;
}

/** How a buyer answered an attempt. Transport failures are thrown as `RetryableLenderError` (with a `kind`). */
export type AttemptAnswer =
  | { kind: 'sold'; price: number; redirectUrl: string; upstreamLeadId?: string }
  | { kind: 'rejected'; rejectUrl?: string; fieldErrors: MappedFieldError[] }
  | { kind: 'pending'; pending: PendingRef }
  /** The buyer refused the lead's fields: lower floors at this buyer will not change that. */
  | { kind: 'invalid'; fieldErrors: MappedFieldError[] };

/** One protocol, spoken to one buyer. */
export interface BuyerAdapter {
  readonly buyer: Buyer;
  post(lead: LeadRecord, attempt: AttemptRequest): Promise<AttemptAnswer>;
  /** Asks again about a pending attempt; only protocols that answer pending implement it. */
  check(lead: LeadRecord, pending: PendingRef, budgetMs: number): Promise<AttemptAnswer>;
  close(): Promise<void>;
}

export type CallObserver = (buyer: string, endpoint: string, result: string, seconds: number) => void;

export function createBuyerAdapter(buyer: Buyer, observe?: CallObserver): BuyerAdapter {
  return buyer.protocol === 'sync-post'
    ? new SyncPostAdapter(buyer, observe)
    : new LeadServiceAdapter(buyer, observe);
}

/**
 * The lead-service protocol (the network of ADR 0004): post, then status 3 (pending) is pinged until 1 (sold)
 * or 2 (rejected). It states no price: a sale is paid the contract's `price`.
 */
class LeadServiceAdapter implements BuyerAdapter {
  readonly #client: LenderClient;

  constructor(
    readonly buyer: Buyer,
    observe?: CallObserver,
  ) {
    this.#client = new LenderClient({
      baseUrl: buyer.baseUrl,
      ...(buyer.apiKey ? { apiKey: buyer.apiKey } : {}),
      connections: 32,
      connectTimeoutMs: buyer.timeouts.connectMs,
      headersTimeoutMs: buyer.timeouts.attemptMs,
      bodyTimeoutMs: buyer.timeouts.attemptMs,
      ...(observe ? { observe: (endpoint, result, s) => observe(buyer.id, endpoint, result, s) } : {}),
    });
  }

  async post(lead: LeadRecord, attempt: AttemptRequest): Promise<AttemptAnswer> {
    const payload = buildOrRefuse(() =>
      buildSubmissionPayload(lead.fields as unknown as SubmittableLead, {
        ...contextOf(lead),
        idempotencyKey: attempt.key,
      }),
    );
    try {
      const answer = await this.#client.submit(payload, attempt.budgetMs);
      return this.#read(answer.data.status, answer, {
        upstreamLeadId: answer.data.lead_id,
        checkKey: attempt.key,
      });
    } catch (error) {
      return refusal(error);
    }
  }

  async check(lead: LeadRecord, pending: PendingRef, budgetMs: number): Promise<AttemptAnswer> {
    try {
      const answer = await this.#client.ping(
        {
          lead_id: pending.upstreamLeadId,
          checkKey: pending.checkKey,
          utm_source: TrackingSchema.parse(lead.tracking).utmSource ?? '',
        },
        Math.min(budgetMs, this.buyer.timeouts.pollMs),
      );
      return this.#read(answer.data.data.status, answer.data.data, pending);
    } catch (error) {
      return refusal(error);
    }
  }

  #read(
    status: number,
    answer: { redirect_url?: string | undefined; rejectUrl?: string | undefined },
    pending: PendingRef,
  ): AttemptAnswer {
    if (status === LEAD_STATUS.PENDING) return { kind: 'pending', pending };
    if (status === LEAD_STATUS.SOLD && answer.redirect_url) {
      return {
        kind: 'sold',
        price: this.buyer.price ?? 0,
        redirectUrl: answer.redirect_url,
        upstreamLeadId: pending.upstreamLeadId,
      };
    }
    // Sold without an address, rejected, or a status we do not know: no sale we can send the borrower to.
    return {
      kind: 'rejected',
      fieldErrors: [],
      ...(answer.rejectUrl ? { rejectUrl: answer.rejectUrl } : {}),
    };
  }

  close(): Promise<void> {
    return this.#client.close();
  }
}

/** A 4xx is the buyer refusing this lead: its field errors are kept; anything else is thrown on. */
function refusal(error: unknown): AttemptAnswer {
  if (!(error instanceof FinalLenderError)) throw error;
  const fieldErrors = error.fields ? mapLenderFieldErrors(error.fields) : [];
  return fieldErrors.length > 0 ? { kind: 'invalid', fieldErrors } : { kind: 'rejected', fieldErrors };
}

/**
 * The LeadsMarket-style synchronous post: one call per attempt carrying `MinimumPrice` and `MaxResponseTime`,
 * answered Sold (with its `Price`), Rejected, or Error with field errors.
 */
class SyncPostAdapter implements BuyerAdapter {
  readonly #pool: Pool;
  readonly #path: string;

  constructor(
    readonly buyer: Buyer,
    private readonly observe?: CallObserver,
  ) {
    const url = new URL(buyer.baseUrl);
    this.#path = `${url.pathname.replace(/\/$/, '')}${SYNC_POST_PATH}`;
    this.#pool = new Pool(url.origin, {
      connections: 32,
      connectTimeout: buyer.timeouts.connectMs,
      keepAliveTimeout: 10_000,
    });
  }

  async post(lead: LeadRecord, attempt: AttemptRequest): Promise<AttemptAnswer> {
    // The buyer is told a little less than the budget, so its answer has time to travel back.
    const maxResponseSeconds = Math.floor((attempt.budgetMs - 500) / 1000);
    const payload = buildOrRefuse(() =>
      buildSyncPostPayload(lead.fields as unknown as SubmittableLead, contextOf(lead), {
        idempotencyKey: attempt.key,
        minimumPrice: attempt.floor ?? 0,
        maxResponseSeconds,
      }),
    );
    const started = performance.now();
    let result = 'ok';
    try {
      const response = await this.#pool
        .request({
          method: 'POST',
          path: this.#path,
          headers: {
            accept: 'application/json',
            'content-type': 'application/json',
            ...(this.buyer.apiKey ? { authorization: `Bearer ${this.buyer.apiKey}` } : {}),
          },
          body: JSON.stringify(payload),
          headersTimeout: attempt.budgetMs,
          bodyTimeout: attempt.budgetMs,
        })
        .catch((error: unknown) => {
          const code = (error as NodeJS.ErrnoException).code ?? '';
          result = /TIMEOUT/.test(code) ? 'timeout' : 'network';
          throw Object.assign(new RetryableLenderError(`POST ${SYNC_POST_PATH}: ${code}`), { kind: result });
        });
      const text = await response.body.text();
      if (response.statusCode >= 400) {
        result = response.statusCode >= 500 || response.statusCode === 429 ? 'http_5xx' : 'http_4xx';
        if (result === 'http_4xx') return { kind: 'rejected', fieldErrors: [] };
        throw Object.assign(
          new RetryableLenderError(`POST ${SYNC_POST_PATH} answered ${response.statusCode}`),
          {
            kind: result,
          },
        );
      }
      const parsed = SyncPostResponseSchema.safeParse(safeJson(text));
      if (!parsed.success) {
        result = 'malformed';
        throw Object.assign(new RetryableLenderError(`POST ${SYNC_POST_PATH} answered an unexpected shape`), {
          kind: result,
        });
      }
      const answer = parsed.data;
      if (answer.Result === 'Sold' && answer.RedirectURL) {
        return {
          kind: 'sold',
          price: Math.max(answer.Price ?? 0, attempt.floor ?? 0),
          redirectUrl: answer.RedirectURL,
          ...(answer.LeadID ? { upstreamLeadId: answer.LeadID } : {}),
        };
      }
      if (answer.Result === 'Error')
        return { kind: 'invalid', fieldErrors: mapSyncPostErrors(answer.Errors) };
      return { kind: 'rejected', fieldErrors: mapSyncPostErrors(answer.Errors) };
    } finally {
      this.observe?.(this.buyer.id, 'post', result, (performance.now() - started) / 1000);
    }
  }

  check(): Promise<AttemptAnswer> {
    throw new Error('a sync-post attempt is never pending');
  }

  close(): Promise<void> {
    return this.#pool.close();
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function contextOf(lead: LeadRecord) {
  const consent = lead.consent;
  if (!consent) throw new UnrecoverableError('submitted lead has no consent record');
  return {
    leadId: lead.id,
    tracking: TrackingSchema.parse(lead.tracking),
    userIp: consent.ip,
    userAgent: consent.userAgent,
    webSiteUrl: consent.pageUrl,
    ...(lead.fields.test_mode === true ? { testMode: true } : {}),
  };
}

/** A lead that cannot make a payload is our fault, and retrying will not fix it. */
function buildOrRefuse<T>(build: () => T): T {
  try {
    return build();
  } catch (error) {
    const fields =
      error instanceof ZodError ? error.issues.map((i) => i.path.join('.')).join(', ') : String(error);
    throw new UnrecoverableError(`lead cannot be turned into a submission (${fields})`);
  }
}
