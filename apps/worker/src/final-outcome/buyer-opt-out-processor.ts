import type { Job } from 'bullmq';
import type { Logger } from 'pino';
import type { Buyer } from '@funnel/contracts/buyers';
import {
  BuyerOptOutNoticeSchema,
  OPT_OUT_BUSINESS_DAYS,
  businessDaysAfter,
} from '@funnel/contracts/buyer-opt-out';
import { BuyerOptOutJobSchema } from '@funnel/contracts/jobs';
import { isFinalOutcome } from '@funnel/contracts/lead-outcome';
import type { OptOutRecipient } from '@funnel/db/opt-out-recipients';
import type { EventOutbox } from '@funnel/lead-store/event-outbox';
import type { LeadStore } from '@funnel/lead-store/lead-store';
import type { PartnerWebhookSecrets } from '@funnel/lead-store/partner-config';
import { standardWebhookHeaders } from '@funnel/server-runtime/standard-webhook';
import { errorKindOf, recordDeliveryAttempt, type AttemptEnd } from './delivery-attempts.js';
import { WebhookAddressRefusedError, type WebhookSender } from './webhook-sender.js';

export interface BuyerOptOutDeps {
  store: Pick<LeadStore, 'getOutcome'>;
  /** The system of record's answer: who received the lead, and whether its outcome is recorded yet. */
  recipientsOf(leadId: string): Promise<{ decided: boolean; recipients: OptOutRecipient[] }>;
  /** A buyer's settings as they are now (its `optOutUrl`), or undefined for a buyer no longer in the file. */
  buyer(id: string): Buyer | undefined;
  /** `BUYER_WEBHOOK_SECRETS`: the secrets notices to each buyer are signed with. */
  secrets: PartnerWebhookSecrets;
  sender: Pick<WebhookSender, 'post'>;
  events?: Pick<EventOutbox, 'append'> | undefined;
  now: () => number;
  logger: Logger;
}

export type BuyerOptOutResult = { told: number } | { skipped: string };

const USER_AGENT = 'funnel-opt-outs/1';

/** Waiting for a lead's buyers to be known; the queue tries again after its backoff. */
class RecipientsNotKnownYet extends Error {
  override readonly name = 'RecipientsNotKnownYet';
}

/**
 * Tells each buyer that received a lead that its borrower opted out (issue 41): a signed JSON notice
 * ({@link BuyerOptOutNoticeSchema}) to the buyer's `optOutUrl`, each attempt recorded in the lead's journey as a
 * `buyer_opt_out` delivery. Waits (by failing, so the queue tries again) while the lead is still with its buyers
 * or the system of record has not recorded its outcome. A buyer without an address or a secret is recorded as not
 * told, for an operator to tell by other means; a buyer that answered 2xx is not told again on a retry.
 */
export function createBuyerOptOutProcessor(deps: BuyerOptOutDeps) {
  return async function processBuyerOptOut(job: Job): Promise<BuyerOptOutResult> {
    const request = BuyerOptOutJobSchema.parse(job.data);
    const { leadId, kind } = request;
    const log = deps.logger.child({ leadId, jobId: job.id, kind });
    const outcome = await deps.store.getOutcome(leadId);
    if (outcome && !isFinalOutcome(outcome.outcome)) {
      throw new RecipientsNotKnownYet('the lead is still offered to its buyers');
    }
    const { decided, recipients } = await deps.recipientsOf(leadId);
    if (outcome && !decided) throw new RecipientsNotKnownYet('the system of record has not its outcome yet');
    if (recipients.length === 0) return { skipped: 'no buyer received the lead' };

    const told = new Set(request.told);
    const respondBy = businessDaysAfter(request.requestedAt, OPT_OUT_BUSINESS_DAYS);
    let failed = 0;
    for (const { buyer: buyerId, attemptKeys } of recipients) {
      if (told.has(buyerId)) continue;
      const url = deps.buyer(buyerId)?.optOutUrl;
      const secrets = deps.secrets.get(buyerId) ?? [];
      const started = deps.now();
      const record = (end: AttemptEnd) =>
        recordDeliveryAttempt(deps.events, job, {
          leadId,
          channel: 'buyer_opt_out',
          target: buyerId,
          url: url ?? '',
          event: kind,
          started,
          ended: deps.now(),
          end,
        });
      if (!url || secrets.length === 0) {
        // Nothing to try again: the journey says this buyer must be told another way.
        await record({ result: 'refused', errorKind: url ? 'no_secret' : 'no_opt_out_url' });
        log.warn({ buyer: buyerId }, 'buyer not told of an opt-out: no address or secret');
        told.add(buyerId);
        continue;
      }
      const body = JSON.stringify(
        BuyerOptOutNoticeSchema.parse({
          type: 'opt_out',
          kind,
          reference: leadId,
          attemptKeys: attemptKeys.slice(0, 50),
          requestedAt: request.requestedAt,
          respondBy,
        }),
      );
      const headers = {
        ...standardWebhookHeaders(secrets, `optout_${leadId}_${kind}`, body, Math.floor(started / 1000)),
        'user-agent': USER_AGENT,
      };
      try {
        const status = await deps.sender.post(url, body, headers);
        const delivered = status >= 200 && status < 300;
        await record({ result: delivered ? 'delivered' : 'failed', status });
        if (delivered) told.add(buyerId);
        else failed += 1;
      } catch (error) {
        const refused = error instanceof WebhookAddressRefusedError;
        await record({ result: refused ? 'refused' : 'failed', errorKind: errorKindOf(error) });
        // An address that may never be called will not become one: the journey says so, and nobody retries.
        if (refused) told.add(buyerId);
        else failed += 1;
      }
    }
    await job.updateData({ ...request, told: [...told] });
    if (failed > 0) {
      log.warn({ failed, attempt: job.attemptsMade + 1 }, 'opt-out not acknowledged by every buyer');
      throw new Error(`${failed} buyer(s) did not acknowledge the opt-out`);
    }
    log.info({ buyers: told.size }, 'opt-out told to every buyer');
    return { told: told.size };
  };
}
