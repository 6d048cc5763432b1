import type { Buyer } from '@funnel/contracts/buyers';
import type { SubmittableLead } from '@funnel/contracts/lender-network';
import {
  SYNC_POST_PATH,
  SyncPostResponseSchema,
  buildSyncPostPayload,
  mapSyncPostErrors,
} from '@funnel/contracts/sync-post-network';
import type { LeadRecord } from '@funnel/lead-store/lead-store';
import type {
  AdapterOptions,
  AttemptAnswer,
  AttemptRequest,
  BuyerAdapter,
  CallObserver,
} from './buyer-adapter.js';
import { buildOrRefuse, submissionContextOf } from './buyer-payload-context.js';
import { BudgetedPool, DEFAULT_MAX_RESPONSE_BYTES } from './budgeted-pool.js';
import { RetryableLenderError, retryableStatusKind } from './lender-errors.js';

/** What the buyer is not told of its budget: the time its answer takes to travel back. */
const WAY_BACK_MS = 500;

/**
 * The LeadsMarket-style synchronous post: one call per attempt carrying `MinimumPrice` and `MaxResponseTime`,
 * answered Sold (with its `Price`), Rejected, or Error with field errors.
 */
export class SyncPostAdapter implements BuyerAdapter {
  readonly #pool: BudgetedPool;
  readonly #path: string;

  constructor(
    readonly buyer: Buyer,
    private readonly observe?: CallObserver,
    options: AdapterOptions = {},
  ) {
    const url = new URL(buyer.baseUrl);
    this.#path = `${url.pathname.replace(/\/$/, '')}${SYNC_POST_PATH}`;
    this.#pool = new BudgetedPool(url.origin, {
      connections: options.connections ?? buyer.concurrency,
      connectTimeoutMs: buyer.timeouts.connectMs,
      maxResponseBytes: options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES,
      ...(options.addresses ? { addresses: options.addresses } : {}),
    });
  }

  async post(lead: LeadRecord, attempt: AttemptRequest): Promise<AttemptAnswer> {
    const budget = { startedAt: performance.now(), budgetMs: attempt.budgetMs };
    // Refused fields are known before any wait for a connection.
    buildOrRefuse(() => this.#payload(lead, attempt, 0));
    let result = 'ok';
    try {
      const response = await this.#pool.request(`POST ${SYNC_POST_PATH}`, budget, (remainingMs = 0) => {
        // Built once a connection is ours: the buyer is told what really remains, less the way back.
        const maxResponseSeconds = Math.floor((remainingMs - WAY_BACK_MS) / 1000);
        if (maxResponseSeconds < 0) return undefined;
        return {
          method: 'POST',
          path: this.#path,
          headers: {
            accept: 'application/json',
            'content-type': 'application/json',
            ...(this.buyer.apiKey ? { authorization: `Bearer ${this.buyer.apiKey}` } : {}),
          },
          body: JSON.stringify(this.#payload(lead, attempt, maxResponseSeconds)),
        };
      });
      const text = response.text;
      if (response.statusCode === 429 || response.statusCode >= 500) {
        throw new RetryableLenderError(
          `POST ${SYNC_POST_PATH} answered ${response.statusCode}`,
          retryableStatusKind(response.statusCode),
        );
      }
      if (response.statusCode >= 400) {
        result = 'http_4xx';
        return { kind: 'rejected', fieldErrors: [] };
      }
      const parsed = SyncPostResponseSchema.safeParse(safeJson(text));
      if (!parsed.success) {
        throw new RetryableLenderError(`POST ${SYNC_POST_PATH} answered an unexpected shape`, 'malformed');
      }
      const answer = parsed.data;
      if (answer.Result === 'Sold') {
        // What the buyer says it pays; a sale that names no price is paid the floor it accepted.
        return {
          kind: 'sold',
          price: answer.Price ?? attempt.floor ?? 0,
          ...(answer.RedirectURL ? { redirectUrl: answer.RedirectURL } : {}),
          ...(answer.LeadID ? { upstreamLeadId: answer.LeadID } : {}),
        };
      }
      if (answer.Result === 'Error')
        return { kind: 'invalid', fieldErrors: mapSyncPostErrors(answer.Errors) };
      return { kind: 'rejected', fieldErrors: mapSyncPostErrors(answer.Errors) };
    } catch (error) {
      if (error instanceof RetryableLenderError) result = error.kind;
      throw error;
    } finally {
      this.observe?.(this.buyer.id, 'post', result, (performance.now() - budget.startedAt) / 1000);
    }
  }

  #payload(lead: LeadRecord, attempt: AttemptRequest, maxResponseSeconds: number) {
    return buildSyncPostPayload(lead.fields as unknown as SubmittableLead, submissionContextOf(lead), {
      idempotencyKey: attempt.key,
      minimumPrice: attempt.floor ?? 0,
      maxResponseSeconds,
    });
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
