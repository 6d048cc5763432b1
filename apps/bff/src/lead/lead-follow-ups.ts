import type { StepName } from '@funnel/contracts/steps';
import type { LeadJobs } from '../jobs/lead-jobs.js';

/**
 * Work that follows a visitor's save or submission without holding up the answer: queued jobs the worker runs
 * (the mailing-list sync of spec §7). The lifecycle calls these after the lead is stored.
 */
export interface LeadFollowUps {
  /** A step was saved; the email step syncs the contact to the mailing list. */
  stepSaved(leadId: string, step: StepName): Promise<void>;
  /** The lead was submitted and the visitor is on the matching screen: the contact is synced again. */
  submitted(leadId: string): Promise<void>;
}

/** The follow-ups as queued jobs: a mailing-list sync when the email step is saved and on submission. */
export function queuedFollowUps(jobs: Pick<LeadJobs, 'mailingListSync'>): LeadFollowUps {
  return {
    async stepSaved(leadId, step) {
      if (step === 'email') await jobs.mailingListSync(leadId, 'email-saved');
    },
    async submitted(leadId) {
      await jobs.mailingListSync(leadId, 'submitted');
    },
  };
}
