import type { ClientField } from '@funnel/contracts/fields';
import type { BorrowerIndex } from '@funnel/lead-store/borrower-index';
import type { EventOutbox } from '@funnel/lead-store/event-outbox';
import type { LeadRecord, LeadStore } from '@funnel/lead-store/lead-store';
import { HttpError } from '../http-error.js';
import type { ZipDirectory } from '../reference-data/zip-directory.js';
import type { LeadFollowUps } from './lead-follow-ups.js';
import type { RoutingLookup } from './routing-lookup.js';

/** What the drafts and the submission of a lead share: their dependencies, request context and errors. */

/** The idempotency key was taken over by a later request (this one looked dead): nothing was created. */
export class LostIdempotencyClaim extends Error {
  constructor() {
    super('idempotency claim taken over by another request');
  }
}

export type ClientLead = Partial<Record<ClientField, unknown>>;

export interface LeadLifecycleDeps {
  store: LeadStore;
  zips: ZipDirectory;
  routing: RoutingLookup;
  /** Today's date in the business time zone, 'YYYY-MM-DD'. */
  today: () => string;
  now: () => Date;
  /** Puts the lead's submission job on the queue (idempotent: one job per lead). */
  enqueueSubmission: (leadId: string) => Promise<void>;
  /** How long lenders have to decide before the lead ends as "no lender". */
  decisionDeadlineMs: number;
  /** Consent evidence: the partner list version it names, and how long it is kept apart from the lead. */
  consent: { partnerListVersion: string; retentionMs: number };
  /** Jobs that follow a save or a submission (mailing-list sync). */
  followUps: LeadFollowUps;
  /** The borrowers submitted within the duplicate window (keyed hashes). */
  borrowers: Pick<BorrowerIndex, 'keysOf' | 'claim'>;
  /** Where lead events go for the system of record (issue 10); absent when no database is configured. */
  events?: Pick<EventOutbox, 'append'>;
  /** Counts a duplicate borrower refused, by source and affiliate. */
  onDuplicate?: (source: 'funnel' | 'partner', affiliate: string | undefined) => void;
}

export interface SubmitContext extends RequestContext {
  /** Scheme and host the visitor used, for the consent record's page URL. */
  origin: string;
}

export interface RequestContext {
  ip: string;
  userAgent: string | undefined;
  /** The request's cookies and Referer: attribution on the landing request (`resolveTracking`). */
  cookies?: Readonly<Record<string, string | undefined>>;
  referer?: string | undefined;
}

/** The partner posting a lead through the partner API, from their API key. */
export interface PartnerSource {
  partnerId: string;
  /** Overrides any `tracking.affiliateId` the partner sent: attribution follows the key. */
  affiliateId: string;
}

export function sessionExpired(): HttpError {
  return new HttpError(404, 'SESSION_EXPIRED', 'This session is invalid or expired. Please start over!');
}

/** The session's lead (opening only the sealed fields in `opened`, when given); 404 without one. */
export async function loadLead(
  store: Pick<LeadStore, 'get'>,
  leadId: string | undefined,
  opened?: ReadonlySet<string>,
): Promise<LeadRecord> {
  const record = leadId
    ? await store.get(leadId, opened ? { open: (field) => opened.has(field) } : {})
    : null;
  if (!record) throw sessionExpired();
  return record;
}
