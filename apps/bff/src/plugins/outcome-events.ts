import fp from 'fastify-plugin';
import { OutcomeMessageSchema } from '@funnel/contracts/jobs';
import { isFinalOutcome, type LeadOutcome } from '@funnel/contracts/lead-outcome';
import { SpanKind, inSpan, type Span } from '@funnel/server-runtime/tracing';

declare module 'fastify' {
  interface FastifyInstance {
    outcomeEvents: OutcomeEvents;
  }
}

export type OutcomeListener = (outcome: LeadOutcome) => void;

export interface OutcomeEvents {
  /** Calls `listener` with every outcome change of `leadId` until the returned function is called. */
  subscribe(leadId: string, listener: OutcomeListener): () => void;
  /** Open subscriptions in this process (for metrics and tests). */
  readonly size: number;
}

/**
 * One Redis subscriber per BFF process, fanned out to every browser connection of that process. An outcome
 * published by any worker reaches a browser connected to any BFF instance, at the cost of one Redis
 * connection per instance, not per browser.
 */
export default fp(
  async (app) => {
    const listeners = new Map<string, Set<OutcomeListener>>();
    let size = 0;
    // A subscriber waits out outages (it resubscribes on reconnection); the main connection logs them.
    const subscriber = app.redis.duplicate({
      lazyConnect: false,
      enableOfflineQueue: true,
      maxRetriesPerRequest: null,
      commandTimeout: undefined,
    });
    subscriber.on('error', () => undefined);
    await subscriber.subscribe(app.leadStore.outcomeChannel);

    subscriber.on('message', (_channel, message) => {
      const parsed = OutcomeMessageSchema.safeParse(JSON.parse(message));
      if (!parsed.success) return;
      const { leadId, traceparent } = parsed.data;
      const forLead = listeners.get(leadId);
      if (!forLead) return;
      // One read per change and process, however many tabs watch the lead.
      const push = async (span?: Span) => {
        const outcome = await app.leadStore.getOutcome(leadId);
        if (!outcome) return;
        span?.setAttributes({ 'funnel.outcome': outcome.outcome, 'funnel.listeners': forLead.size });
        if (isFinalOutcome(outcome.outcome)) app.metrics.decided.inc({ outcome: outcome.outcome });
        for (const listener of forLead) listener(outcome);
      };
      // A span of the lead's trace when the worker that decided sent its trace along; never a trace of its own.
      const pushed = traceparent
        ? inSpan(
            'outcome push',
            { kind: SpanKind.CONSUMER, traceparent, attributes: { 'funnel.lead.id': leadId } },
            push,
          )
        : push();
      pushed.catch((err: unknown) => app.log.warn({ err }, 'could not read a published outcome'));
    });

    app.decorate('outcomeEvents', {
      subscribe(leadId, listener) {
        let set = listeners.get(leadId);
        if (!set) listeners.set(leadId, (set = new Set()));
        set.add(listener);
        size++;
        return () => {
          if (set.delete(listener)) size--;
          if (set.size === 0) listeners.delete(leadId);
        };
      },
      get size() {
        return size;
      },
    });

    app.addHook('onClose', async () => {
      await subscriber.quit().catch(() => subscriber.disconnect());
    });
  },
  { name: 'outcome-events', dependencies: ['redis', 'lead-services', 'metrics'] },
);
