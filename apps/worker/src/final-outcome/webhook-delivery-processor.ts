import { UnrecoverableError, type Job } from 'bullmq';
import type { Logger } from 'pino';
import { LeadJobSchema } from '@funnel/contracts/jobs';
import { isFinalOutcome } from '@funnel/contracts/lead-outcome';
import { PartnerWebhookPayloadSchema } from '@funnel/contracts/partner-api';
import { standardWebhookHeaders } from '@funnel/server-runtime/standard-webhook';
import { WEBHOOK_SIGNATURE_HEADER, signWebhookPayload } from '@funnel/server-runtime/webhook-signature';
import type { LeadStore } from '@funnel/lead-store/lead-store';
import type { EventOutbox } from '@funnel/lead-store/event-outbox';
import type { PartnerWebhookSecrets } from '@funnel/lead-store/partner-config';
import { errorKindOf, recordDeliveryAttempt, type AttemptEnd } from './delivery-attempts.js';
import { WebhookAddressRefusedError, type WebhookSender } from './webhook-sender.js';

export interface WebhookDeliveryDeps {
  store: Pick<LeadStore, 'getPartner' | 'getOutcome'>;
  secrets: PartnerWebhookSecrets;
  sender: Pick<WebhookSender, 'post'>;
  /** The lead-event outbox, with a system of record: each attempt is recorded for the lead's journey. */
  events?: Pick<EventOutbox, 'append'> | undefined;
  now: () => number;
  logger: Logger;
}

export type WebhookDeliveryResult = { delivered: number } | { skipped: string };

const USER_AGENT = 'funnel-webhooks/1';

/** The Standard Webhooks event id of a lead's outcome: one final outcome per lead, the same on every retry. */
export function webhookEventId(leadId: string): string {
  return `msg_${leadId}`;
}

/**
 * One attempt at telling a partner its lead's final outcome: the signed JSON `{ leadId, outcome, redirectUrl?,
 * decidedAt }`, never personal data. Signed the Standard Webhooks way (`webhook-id`, `webhook-timestamp`,
 * `webhook-signature`), and for one deprecation period also with the older `X-Funnel-Signature` (CHANGELOG.md). A network error, a timeout or any non-2xx answer throws, and BullMQ retries
 * with exponential backoff (`JOBS.partnerWebhook`); each attempt is signed afresh, so its timestamp is
 * current, and recorded as a `delivery_attempt` event. A lead that is gone, or has no webhook, is skipped.
 */
export function createWebhookDeliveryProcessor(deps: WebhookDeliveryDeps) {
  return async function processWebhookDelivery(job: Job): Promise<WebhookDeliveryResult> {
    const { leadId } = LeadJobSchema.parse(job.data);
    const log = deps.logger.child({ leadId, jobId: job.id });
    const partner = await deps.store.getPartner(leadId);
    const webhookUrl = partner?.webhookUrl;
    if (!partner || !webhookUrl) return { skipped: 'lead gone or without a webhook' };
    const outcome = await deps.store.getOutcome(leadId);
    if (!outcome || !isFinalOutcome(outcome.outcome)) return { skipped: 'lead has no final outcome' };
    const secrets = deps.secrets.get(partner.partnerId);
    if (!secrets || secrets.length === 0) {
      throw new UnrecoverableError(`no webhook secret configured for partner ${partner.partnerId}`);
    }

    const body = JSON.stringify(
      PartnerWebhookPayloadSchema.parse({
        leadId,
        outcome: outcome.outcome,
        ...(outcome.redirectUrl ? { redirectUrl: outcome.redirectUrl } : {}),
        decidedAt: outcome.at,
      }),
    );
    const timestamp = Math.floor(deps.now() / 1000);
    const headers = {
      ...standardWebhookHeaders(secrets, webhookEventId(leadId), body, timestamp),
      [WEBHOOK_SIGNATURE_HEADER]: signWebhookPayload(secrets, body, timestamp),
      'user-agent': USER_AGENT,
    };
    const started = deps.now();
    const record = (end: AttemptEnd) =>
      recordDeliveryAttempt(deps.events, job, {
        leadId,
        channel: 'partner_webhook',
        target: partner.partnerId,
        url: webhookUrl,
        event: outcome.outcome,
        started,
        ended: deps.now(),
        end,
      });
    let status: number;
    try {
      status = await deps.sender.post(webhookUrl, body, headers);
    } catch (error) {
      const refused = error instanceof WebhookAddressRefusedError;
      await record({ result: refused ? 'refused' : 'failed', errorKind: errorKindOf(error) });
      if (refused) throw new UnrecoverableError(error.message);
      throw error;
    }
    const delivered = status >= 200 && status < 300;
    await record({ result: delivered ? 'delivered' : 'failed', status });
    if (!delivered) {
      log.warn({ partnerId: partner.partnerId, status, attempt: job.attemptsMade + 1 }, 'webhook refused');
      throw new Error(`webhook answered ${status}`);
    }
    log.info({ partnerId: partner.partnerId, status }, 'webhook delivered');
    return { delivered: status };
  };
}
