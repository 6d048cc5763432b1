import {
  DO_NOT_SELL_CONFIRMATION,
  UNSUBSCRIBE_CONFIRMATION,
  type DoNotSellRequestPayload,
  type PrivacyRequestResult,
  type UnsubscribeRequestPayload,
} from '@funnel/contracts/privacy';
import type { LeadStore } from '@funnel/lead-store/lead-store';
import type { ContactIndex } from '@funnel/lead-store/contact-index';
import type { SuppressionList } from '@funnel/lead-store/suppression-list';
import type { LeadJobs } from '../jobs/lead-jobs.js';

export interface PrivacyRequestsDeps {
  suppression: SuppressionList;
  leads: LeadStore;
  /** The leads that hold a contact (keyed hashes): whose buyers an unsubscribe reaches. */
  contactIndex: Pick<ContactIndex, 'leadsOf'>;
  /** Tells the buyers that received a lead of its borrower's opt-out (issue 41). */
  jobs: Pick<LeadJobs, 'buyerOptOut'>;
}

/**
 * The privacy requests a visitor makes (spec §2 "Privacy forms", docs/product-rules.md §privacy-requests): each is recorded durably and
 * suppresses its contact for good. A request is only ever matched to a lead through the visitor's own session:
 * an email address typed into a form never finds, reveals or changes anyone's lead. The buyers that received a
 * lead are told of its opt-out (issue 41): an unsubscribe reaches the buyers of every lead holding the email or
 * phone (the visitor learns nothing of them), a do-not-sell request those of the visitor's own lead.
 */
export class PrivacyRequests {
  constructor(private readonly deps: PrivacyRequestsDeps) {}

  /** No more marketing email, texts or calls to this email address and phone number. */
  async unsubscribe(request: UnsubscribeRequestPayload): Promise<PrivacyRequestResult> {
    const contact = { email: request.email, phone: request.phone };
    await this.deps.suppression.record({ type: 'unsubscribe', source: 'form', contact, request });
    const at = new Date();
    for (const leadId of await this.deps.contactIndex.leadsOf(contact)) {
      await this.deps.jobs.buyerOptOut(leadId, 'unsubscribe', at);
    }
    return { status: 200, message: UNSUBSCRIBE_CONFIRMATION };
  }

  /**
   * Do not sell or share this person's information. `sessionLeadId` is the lead bound to the visitor's cookie,
   * if any: that lead is flagged so it is never sent to marketing partners.
   */
  async doNotSell(
    request: DoNotSellRequestPayload,
    sessionLeadId: string | undefined,
  ): Promise<PrivacyRequestResult> {
    const flagged = sessionLeadId
      ? await this.deps.leads.flagDoNotSell(sessionLeadId, 'do-not-sell-request')
      : 'missing';
    await this.deps.suppression.record({
      type: 'do-not-sell',
      source: 'form',
      contact: { email: request.email, phone: request.phone },
      request,
      leadId: flagged === 'missing' ? undefined : sessionLeadId,
    });
    if (sessionLeadId && flagged !== 'missing') {
      await this.deps.jobs.buyerOptOut(sessionLeadId, 'do_not_sell', new Date());
    }
    return { status: 200, message: DO_NOT_SELL_CONFIRMATION };
  }

  /**
   * docs/product-rules.md §privacy-requests: a `Sec-GPC: 1` request header is a do-not-sell request for the visitor's lead. The flag is set
   * once and the first time is recorded in the request stream, so every later request carrying the header costs
   * one Redis call and stores nothing.
   */
  async honourGlobalPrivacyControl(leadId: string): Promise<void> {
    if ((await this.deps.leads.flagDoNotSell(leadId, 'global-privacy-control')) !== 'flagged') return;
    await this.deps.suppression.record({
      type: 'do-not-sell',
      source: 'global-privacy-control',
      contact: {},
      request: {},
      leadId,
    });
    await this.deps.jobs.buyerOptOut(leadId, 'do_not_sell', new Date());
  }
}
