import { contractPriceOf, type Buyer } from '@funnel/contracts/buyers';
import {
  LEAD_STATUS,
  buildSubmissionPayload,
  mapLenderFieldErrors,
  type SubmittableLead,
} from '@funnel/contracts/lender-network';
import { TrackingSchema } from '@funnel/contracts/tracking';
import type { LeadRecord } from '@funnel/lead-store/lead-store';
import type {
  AdapterOptions,
  AttemptAnswer,
  AttemptRequest,
  BuyerAdapter,
  CallObserver,
  PendingRef,
} from './buyer-adapter.js';
import { buildOrRefuse, qualityBandOf, submissionContextOf } from './buyer-payload-context.js';
import { LenderClient } from './lender-client.js';
import { FinalLenderError } from './lender-errors.js';

/**
 * The lead-service protocol (the network of ADR 0004): post, then status 3 (pending) is pinged until 1 (sold)
 * or 2 (rejected). It states no price: a sale is paid the contract's, `priceByBand` for the lead's screening
 * band or else `price`.
 */
export class LeadServiceAdapter implements BuyerAdapter {
  readonly #client: LenderClient;

  constructor(
    readonly buyer: Buyer,
    observe?: CallObserver,
    options: AdapterOptions = {},
  ) {
    this.#client = new LenderClient({
      baseUrl: buyer.baseUrl,
      ...(buyer.apiKey ? { apiKey: buyer.apiKey } : {}),
      connections: options.connections ?? buyer.concurrency,
      ...(options.maxResponseBytes ? { maxResponseBytes: options.maxResponseBytes } : {}),
      ...(options.addresses ? { addresses: options.addresses } : {}),
      connectTimeoutMs: buyer.timeouts.connectMs,
      headersTimeoutMs: buyer.timeouts.attemptMs,
      bodyTimeoutMs: buyer.timeouts.attemptMs,
      ...(observe ? { observe: (endpoint, result, s) => observe(buyer.id, endpoint, result, s) } : {}),
    });
  }

  async post(lead: LeadRecord, attempt: AttemptRequest): Promise<AttemptAnswer> {
    const payload = buildOrRefuse(() =>
      buildSubmissionPayload(lead.fields as unknown as SubmittableLead, {
        ...submissionContextOf(lead),
        idempotencyKey: attempt.key,
      }),
    );
    try {
      const answer = await this.#client.submit(payload, attempt.budgetMs);
      return this.#read(lead, answer.data.status, answer, {
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
      return this.#read(lead, answer.data.data.status, answer.data.data, pending);
    } catch (error) {
      return refusal(error);
    }
  }

  #read(
    lead: LeadRecord,
    status: number,
    answer: { redirect_url?: string | undefined; rejectUrl?: string | undefined },
    pending: PendingRef,
  ): AttemptAnswer {
    if (status === LEAD_STATUS.PENDING) return { kind: 'pending', pending };
    // docs/product-rules.md §lender-network-answers: a sale without an address is still a sale (the borrower is told the lender will call).
    if (status === LEAD_STATUS.SOLD) {
      return {
        kind: 'sold',
        price: contractPriceOf(this.buyer, qualityBandOf(lead)),
        ...(answer.redirect_url ? { redirectUrl: answer.redirect_url } : {}),
        upstreamLeadId: pending.upstreamLeadId,
      };
    }
    // Rejected, or a status we do not know: no sale.
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
