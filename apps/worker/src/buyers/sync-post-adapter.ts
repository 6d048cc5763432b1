import { Pool } from 'undici';
import type { Buyer } from '@funnel/contracts/buyers';
import type { SubmittableLead } from '@funnel/contracts/lender-network';
import {
  SYNC_POST_PATH,
  SyncPostResponseSchema,
  buildSyncPostPayload,
  mapSyncPostErrors,
} from '@funnel/contracts/sync-post-network';
import type { LeadRecord } from '@funnel/lead-store/lead-store';
import type { AttemptAnswer, AttemptRequest, BuyerAdapter, CallObserver } from './buyer-adapter.js';
import { buildOrRefuse, submissionContextOf } from './buyer-payload-context.js';
import { RetryableLenderError, retryableStatusKind, transportFailureKind } from './lender-errors.js';

/**
 * The LeadsMarket-style synchronous post: one call per attempt carrying `MinimumPrice` and `MaxResponseTime`,
 * answered Sold (with its `Price`), Rejected, or Error with field errors.
 */
export class SyncPostAdapter implements BuyerAdapter {
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
      // Undici 8 negotiates HTTP/2 by default; `connections` sizes HTTP/1.1 keep-alive sockets, so stay on 1.1.
      allowH2: false,
    });
  }

  async post(lead: LeadRecord, attempt: AttemptRequest): Promise<AttemptAnswer> {
    // The buyer is told a little less than the budget, so its answer has time to travel back.
    const maxResponseSeconds = Math.floor((attempt.budgetMs - 500) / 1000);
    const payload = buildOrRefuse(() =>
      buildSyncPostPayload(lead.fields as unknown as SubmittableLead, submissionContextOf(lead), {
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
          throw new RetryableLenderError(
            `POST ${SYNC_POST_PATH}: ${(error as NodeJS.ErrnoException).code ?? ''}`,
            transportFailureKind(error),
          );
        });
      const text = await response.body.text();
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
