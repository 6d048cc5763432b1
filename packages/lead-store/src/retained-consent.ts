import type { Redis } from 'ioredis';
import {
  RetainedConsentSchema,
  consentText,
  type ConsentRecord,
  type RetainedConsent,
} from '@funnel/contracts/consent';
import { CLIENT_TO_SERVER } from '@funnel/contracts/fields';
import { FieldCipher } from './field-cipher.js';
import { redisKeys, type RedisKeys } from './keys.js';
import type { StoredFields } from './lead-record.js';

/**
 * A lead's consent evidence kept apart from the lead (`{prefix}consent:{leadId}`) for the retention period
 * (years), beyond the lead's own life: sealed whole, since it names the person, their contact, IP and user agent.
 */
export class RetainedConsents {
  private readonly keys: RedisKeys;

  constructor(
    private readonly redis: Redis,
    private readonly cipher: FieldCipher,
    options: { keyPrefix: string },
  ) {
    this.keys = redisKeys(options.keyPrefix);
  }

  /** Where a lead's consent evidence is kept. */
  key(leadId: string): string {
    return this.keys.consent(leadId);
  }

  /**
   * Keeps the consent evidence for `ttlMs`. The first record stays: consent is given once per lead. Returns
   * false when one was already kept.
   */
  async retain(record: RetainedConsent, ttlMs: number): Promise<boolean> {
    return (await this.redis.set(this.key(record.leadId), this.seal(record), 'PX', ttlMs, 'NX')) === 'OK';
  }

  /** The retained consent evidence of a lead, as long as it is kept (even after the lead is gone). */
  async get(leadId: string): Promise<RetainedConsent | undefined> {
    const raw = await this.redis.get(this.key(leadId));
    return raw ? openRetainedConsent(this.cipher, leadId, raw) : undefined;
  }

  /** The record as stored: sealed whole, bound to its lead id. */
  seal(record: RetainedConsent): string {
    const json = JSON.stringify(RetainedConsentSchema.parse(record));
    return this.cipher.seal(json, retainedConsentContext(record.leadId));
  }
}

/** The associated data a retained consent record is sealed with: its lead id, so a copy under another lead fails. */
export function retainedConsentContext(leadId: string): string {
  return `${leadId}:consent`;
}

/**
 * A retained consent record as read from `{prefix}consent:{leadId}`: opened when sealed, and read as it is when an
 * older version wrote it in clear.
 */
export function openRetainedConsent(
  cipher: { open(sealed: string, context: string): string },
  leadId: string,
  raw: string,
): RetainedConsent {
  const json = FieldCipher.isSealed(raw) ? cipher.open(raw, retainedConsentContext(leadId)) : raw;
  return RetainedConsentSchema.parse(JSON.parse(json));
}

/** The contact points a consent covers, as the lead holds them (server names). */
const CONTACT_FIELDS = {
  firstName: CLIENT_TO_SERVER.firstName,
  lastName: CLIENT_TO_SERVER.lastName,
  email: CLIENT_TO_SERVER.email,
  phone: CLIENT_TO_SERVER.phone,
} as const;

/**
 * The consent evidence to keep for years apart from the lead: the record stored on the lead, the exact text it
 * hashes, and who consented to be contacted where. Built from an allow-list of fields, so no SSN, bank or
 * licence detail can slip in.
 */
export function retainedConsent(
  leadId: string,
  consent: ConsentRecord,
  fields: StoredFields,
): RetainedConsent {
  const contact: RetainedConsent['contact'] = {};
  for (const [name, field] of Object.entries(CONTACT_FIELDS) as Array<
    [keyof RetainedConsent['contact'], (typeof CONTACT_FIELDS)[keyof typeof CONTACT_FIELDS]]
  >) {
    const value = fields[field];
    if (typeof value === 'string') contact[name] = value;
  }
  return { ...consent, leadId, text: consentText(consent.button), contact };
}
