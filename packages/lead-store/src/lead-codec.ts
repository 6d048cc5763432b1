import * as z from 'zod';
import { ConsentRecordSchema } from '@funnel/contracts/consent';
import { CLIENT_TO_SERVER } from '@funnel/contracts/fields';
import { LeadOutcomeSchema, SubmissionStateSchema } from '@funnel/contracts/lead-outcome';
import { DoNotSellFlagSchema } from '@funnel/contracts/privacy';
import { PartnerLeadMetaSchema } from '@funnel/contracts/partner-api';
import { CrossSellRecordSchema } from '@funnel/contracts/cross-sell';
import type { Contact } from './contact-hash.js';
import { FieldCipher } from './field-cipher.js';
import { META, SEALED_META, Unopened, type LeadRecord, type StoredFields } from './lead-record.js';

/**
 * How a lead hash is written and read: each answer JSON-encoded and, when `sealed` says so, sealed with
 * AES-256-GCM bound to `{leadId}:{field}`; the meta fields that name the person ({@link SEALED_META}) sealed too.
 */
export class LeadCodec {
  constructor(
    private readonly cipher: FieldCipher,
    private readonly sealed: (field: string) => boolean,
  ) {}

  /** The answers as hash fields. */
  encode(id: string, fields: StoredFields): Record<string, string> {
    const out: Record<string, string> = {};
    for (const [field, value] of Object.entries(fields)) {
      if (value === undefined) continue;
      const json = JSON.stringify(value);
      out[field] = this.sealed(field) ? this.cipher.seal(json, `${id}:${field}`) : json;
    }
    return out;
  }

  /** The meta pairs with the ones naming the person sealed ({@link SEALED_META}). */
  sealMeta(id: string, meta: Record<string, string>): Record<string, string> {
    const out: Record<string, string> = {};
    for (const [field, value] of Object.entries(meta))
      out[field] = SEALED_META.has(field) ? this.cipher.seal(value, `${id}:${field}`) : value;
    return out;
  }

  /**
   * A whole lead hash as a record, its sealed answers opened; with `open`, only those it accepts, the others
   * read as {@link Unopened}.
   */
  decodeRecord(id: string, raw: Record<string, string>, open?: (field: string) => boolean): LeadRecord {
    const answers: Record<string, string> = {};
    for (const [field, value] of Object.entries(raw)) if (!field.startsWith('_')) answers[field] = value;
    const {
      [META.tracking]: tracking,
      [META.submission]: submission,
      [META.outcome]: outcome,
      [META.consent]: consent,
      [META.doNotSell]: doNotSell,
      [META.partner]: partner,
      [META.crossSell]: crossSell,
      [META.borrowerKeys]: borrowerKeys,
    } = raw;
    return {
      id,
      fields: this.decode(id, answers, open),
      tracking: tracking ? JSON.parse(tracking) : {},
      ...(submission ? { submission: SubmissionStateSchema.parse(JSON.parse(submission)) } : {}),
      ...(outcome ? { outcome: LeadOutcomeSchema.parse(JSON.parse(outcome)) } : {}),
      ...(consent
        ? { consent: ConsentRecordSchema.parse(JSON.parse(this.openValue(consent, `${id}:${META.consent}`))) }
        : {}),
      ...(doNotSell ? { doNotSell: DoNotSellFlagSchema.parse(JSON.parse(doNotSell)) } : {}),
      ...(partner ? { partner: PartnerLeadMetaSchema.parse(JSON.parse(partner)) } : {}),
      ...(crossSell ? { crossSell: CrossSellRecordSchema.parse(JSON.parse(crossSell)) } : {}),
      ...(borrowerKeys ? { borrowerKeys: z.array(z.string()).parse(JSON.parse(borrowerKeys)) } : {}),
    };
  }

  private decode(id: string, raw: Record<string, string>, open?: (field: string) => boolean): StoredFields {
    const out: Record<string, unknown> = {};
    for (const [field, value] of Object.entries(raw)) {
      if (open && FieldCipher.isSealed(value) && !open(field)) out[field] = new Unopened(value);
      else out[field] = JSON.parse(this.openValue(value, `${id}:${field}`));
    }
    return out as StoredFields;
  }

  /** A stored value opened when sealed; a value written in clear by an older version is read as it is. */
  private openValue(value: string, context: string): string {
    return FieldCipher.isSealed(value) ? this.cipher.open(value, context) : value;
  }
}

/** The email and phone among saved answers, for the contact index; undefined when neither is there. */
export function contactOf(fields: StoredFields): Contact | undefined {
  const email = fields[CLIENT_TO_SERVER.email];
  const phone = fields[CLIENT_TO_SERVER.phone];
  if (typeof email !== 'string' && typeof phone !== 'string') return undefined;
  return {
    email: typeof email === 'string' ? email : undefined,
    phone: typeof phone === 'string' ? phone : undefined,
  };
}
