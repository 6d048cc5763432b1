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
import { RetryableLenderError } from './lender-errors.js';

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
