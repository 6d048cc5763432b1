import type { Job } from 'bullmq';
import type { BuyerTestResult } from '@funnel/contracts/buyer-admin';
import { BuyerTestJobSchema } from '@funnel/contracts/jobs';
import type { BuyerRegistry } from './buyer-registry.js';
import { FinalLenderError, RetryableLenderError } from './lender-errors.js';
import { sampleLeadRecord } from './sample-lead-record.js';

/**
 * A manager's test of a buyer (ADR 0022): the sample lead (a fictitious person) posted to the buyer through the
 * adapter the leads go through, in the version this worker runs, at its first floor and within its attempt time,
 * under the request's own key. Paused or not: a test is how a manager checks a buyer before resuming it. Not an
 * attempt of the waterfall: no cap place, no record, no bulkhead place. The answer is the job's return value.
 */
export function createBuyerTestProcessor(registry: BuyerRegistry) {
  return async (job: Job): Promise<BuyerTestResult> => {
    const { buyerId, requestId } = BuyerTestJobSchema.parse(job.data);
    const { file, adapters } = registry.current;
    const buyer = file.buyers.find((b) => b.id === buyerId);
    const adapter = adapters.get(buyerId);
    if (!buyer || !adapter) {
      return { buyer: buyerId, outcome: 'error', message: 'No buyer has this id here.', latencyMs: 0 };
    }
    if (registry.current.keysNeeded.has(buyerId)) {
      // The BFF refuses such a test; a test queued just before the move must not reach the new address either.
      return { buyer: buyerId, outcome: 'error', message: 'It needs its key: not sent.', latencyMs: 0 };
    }
    const started = performance.now();
    const latency = () => Math.round(performance.now() - started);
    try {
      const answer = await adapter.post(sampleLeadRecord(), {
        key: `test-${requestId}`,
        floor: buyer.priceLadder?.[0],
        budgetMs: buyer.timeouts.attemptMs,
      });
      const base = { buyer: buyerId, outcome: answer.kind, latencyMs: latency() };
      if (answer.kind === 'sold') return { ...base, price: answer.price };
      if (answer.kind === 'rejected' || answer.kind === 'invalid') {
        return { ...base, fieldErrors: answer.fieldErrors.map((e) => `${e.field}: ${e.description}`) };
      }
      return base;
    } catch (error) {
      if (error instanceof RetryableLenderError || error instanceof FinalLenderError) {
        return { buyer: buyerId, outcome: 'error', message: error.kind, latencyMs: latency() };
      }
      throw error;
    }
  };
}
