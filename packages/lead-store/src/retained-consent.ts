import type { Redis } from 'ioredis';
import { RetainedConsentSchema, type RetainedConsent } from '@funnel/contracts/consent';
import { FieldCipher } from './field-cipher.js';
import { redisKeys, type RedisKeys } from './keys.js';

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
