import {
  crossSellMarkers,
  mergeCrossSellAnswers,
  sendsCrossSellRecord,
  type CrossSellRecord,
  type CrossSellRequest,
} from '@funnel/contracts/cross-sell';
import type { LeadStore } from '@funnel/lead-store/lead-store';
import { HttpError } from '../http-error.js';
import type { LeadJobs } from '../jobs/lead-jobs.js';
import { sessionExpired } from './lead-lifecycle.js';

export interface CrossSellAnswersDeps {
  store: LeadStore;
  jobs: Pick<LeadJobs, 'crossSellForward'>;
  now: () => Date;
}

/**
 * The cross-sell answers a visitor gives on the matching screen (spec §4): stored on their own lead with the
 * markers they earn, and a forward to the cross-sell partner queued for each yes that sends a record. Whether
 * the contact may be shared at all (suppression, do-not-sell) is decided by the worker when it forwards, so a
 * privacy request made after the answer still counts.
 */
export class CrossSellAnswers {
  constructor(private readonly deps: CrossSellAnswersDeps) {}

  async record(leadId: string | undefined, request: CrossSellRequest): Promise<CrossSellRecord> {
    // Only the submission and the earlier answers are read: no sealed answer is opened.
    const lead = leadId ? await this.deps.store.get(leadId, { open: () => false }) : null;
    if (!lead) throw sessionExpired();
    if (!lead.submission) {
      throw new HttpError(
        409,
        'CONFLICT',
        'The cross-sell questions follow the submission of the application.',
      );
    }
    const answers = mergeCrossSellAnswers(lead.crossSell?.answers ?? [], request.answers);
    const record: CrossSellRecord = {
      answers,
      markers: crossSellMarkers(answers),
      updatedAt: this.deps.now().toISOString(),
    };
    if (!(await this.deps.store.setCrossSell(lead.id, record))) throw sessionExpired();
    for (const answer of request.answers) {
      if (sendsCrossSellRecord(answer)) await this.deps.jobs.crossSellForward(lead.id, answer.question);
    }
    return record;
  }
}
