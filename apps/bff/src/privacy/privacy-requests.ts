import {
  DO_NOT_SELL_CONFIRMATION,
  UNSUBSCRIBE_CONFIRMATION,
  type DoNotSellRequestPayload,
  type PrivacyRequestResult,
  type UnsubscribeRequestPayload,
} from '@funnel/contracts/privacy';
import type { LeadStore } from '@funnel/lead-store/lead-store';
import type { SuppressionList } from '@funnel/lead-store/suppression-list';

export interface PrivacyRequestsDeps {
  suppression: SuppressionList;
  leads: LeadStore;
}

/**
 * The privacy requests a visitor makes (spec §2 "Privacy forms", docs/product-rules.md §privacy-requests): each is recorded durably and
 * suppresses its contact for good. A request is only ever matched to a lead through the visitor's own session:
 * an email address typed into a form never finds, reveals or changes anyone's lead.
 */
export class PrivacyRequests {
  constructor(private readonly deps: PrivacyRequestsDeps) {}

  /** No more marketing email, texts or calls to this email address and phone number. */
  async unsubscribe(request: UnsubscribeRequestPayload): Promise<PrivacyRequestResult> {
    await this.deps.suppression.record({
      type: 'unsubscribe',
      source: 'form',
      contact: { email: request.email, phone: request.phone },
      request,
    });
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
  }
}
