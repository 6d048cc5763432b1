import type { ConsentRecord } from '@funnel/contracts/consent';
import { CLIENT_TO_SERVER, type ServerField } from '@funnel/contracts/fields';
import type { LeadOutcome, SubmissionState } from '@funnel/contracts/lead-outcome';
import type { DoNotSellFlag } from '@funnel/contracts/privacy';
import type { PartnerLeadMeta } from '@funnel/contracts/partner-api';
import type { CrossSellRecord } from '@funnel/contracts/cross-sell';

/**
 * A sealed answer read without opening it ({@link LeadStore.get}'s `open`): the caller learns it is there, not
 * what it says.
 */
export class Unopened {
  constructor(readonly sealed: string) {}
}

/** Stored answers, keyed by server field name (docs/product-rules.md §field-names: leads are stored under server names). */
export type StoredFields = Partial<Record<ServerField, unknown>>;

export interface LeadRecord {
  id: string;
  fields: StoredFields;
  /** Attribution and consent tokens captured at landing (JSON object). */
  tracking: Record<string, unknown>;
  submission?: SubmissionState;
  outcome?: LeadOutcome;
  /** The consent evidence recorded when the lead was submitted. */
  consent?: ConsentRecord;
  /** Set once the visitor asked us not to sell or share their information: never sent to marketing partners. */
  doNotSell?: DoNotSellFlag;
  /** Set when a partner posted the lead through the partner API: who, and where its outcome webhook goes. */
  partner?: PartnerLeadMeta;
  /** The cross-sell answers given on the matching screen. */
  crossSell?: CrossSellRecord;
  /** The duplicate index keys the lead holds its borrower by (`borrower-index.ts`). */
  borrowerKeys?: string[];
}

// Hash fields that are about the lead rather than answers start with '_' (no server field name does).
export const META = {
  tracking: '_tracking',
  submission: '_submission',
  outcome: '_outcome',
  seq: '_outcome_seq',
  consent: '_consent',
  doNotSell: '_do_not_sell',
  partner: '_partner',
  crossSell: '_cross_sell',
  sensitivePurgedAt: '_sensitive_purged_at',
  /** The duplicate index keys the lead claimed (JSON list), so a deletion request can release them. */
  borrowerKeys: '_borrower_keys',
  /** Set in the step that wrote the submission's evidence (`submission-evidence.ts`, docs/adr/0026). */
  evidence: '_evidence',
} as const;

/**
 * Removed once the grace period after the final outcome has passed (docs/product-rules.md §sensitive-data): what a lender needed and
 * nobody needs afterwards. The date of birth stays (sealed) for the lead's remaining life; it identifies the
 * borrower on a support request and opens no account.
 */
export const PURGED_AFTER_OUTCOME = [
  CLIENT_TO_SERVER.socialSecurityNumber,
  CLIENT_TO_SERVER.bankAccount,
  CLIENT_TO_SERVER.routingNumber,
  CLIENT_TO_SERVER.licenseID,
] as const;

export type NewOutcome = Omit<LeadOutcome, 'seq' | 'at'>;

/** Meta fields that name or locate the person (the consent evidence holds the IP and user agent): sealed too. */
export const SEALED_META: ReadonlySet<string> = new Set([META.consent]);
