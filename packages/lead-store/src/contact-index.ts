import type { Redis } from 'ioredis';
import { contactHashes, type Contact, type ContactHash } from './contact-hash.js';
import { redisKeys, type RedisKeys } from './keys.js';

export interface ContactIndexOptions {
  keyPrefix: string;
  /** The same secret as the suppression list (`SUPPRESSION_HASH_SECRET`). */
  hashSecret: string;
  /**
   * How long an entry lives after its last write. It must outlive everything a deletion request has to find
   * (the lead, and its consent record kept for years), so it is the longer of the two.
   */
  ttlMs: number;
}

/**
 * Which leads hold an email address or phone number: one Redis set per contact point,
 * `{prefix}contact-leads:{HMAC}` → lead ids, keyed like the suppression list so no contact is stored in clear.
 * It exists for deletion requests: an operator erases a person by email or phone, and nothing else may search
 * leads by contact (an email typed into a form never finds a lead).
 */
export class ContactIndex {
  constructor(
    private readonly redis: Redis,
    private readonly options: ContactIndexOptions,
  ) {
    this.layout = redisKeys(options.keyPrefix);
  }

  private readonly layout: RedisKeys;

  /**
   * The keyed hashes of a contact's email and phone (none when neither is usable): what the index is keyed by,
   * and what the operator audit log records for a search by contact, so both name a person the same way.
   */
  hashes(contact: Contact): ContactHash[] {
    return contactHashes(contact, this.options.hashSecret);
  }

  /** The index keys of a contact's email and phone (none when neither is usable). */
  keys(contact: Contact): string[] {
    return this.hashes(contact).map(({ hash }) => this.layout.contactLeads(hash));
  }

  /** Records that `leadId` holds this contact. */
  async add(leadId: string, contact: Contact): Promise<void> {
    const keys = this.keys(contact);
    if (keys.length === 0) return;
    const batch = this.redis.multi();
    for (const key of keys) batch.sadd(key, leadId).pexpire(key, this.options.ttlMs);
    await batch.exec();
  }

  /** Every lead that ever held this email or phone (some may have expired since). */
  async leadsOf(contact: Contact): Promise<string[]> {
    const keys = this.keys(contact);
    return keys.length === 0 ? [] : this.redis.sunion(...keys);
  }

  /** Drops one lead from a contact's entries. */
  async remove(leadId: string, contact: Contact): Promise<void> {
    const keys = this.keys(contact);
    if (keys.length === 0) return;
    const batch = this.redis.multi();
    for (const key of keys) batch.srem(key, leadId);
    await batch.exec();
  }

  /** Drops the contact's entries, once its leads are gone. */
  async forget(contact: Contact): Promise<void> {
    const keys = this.keys(contact);
    if (keys.length > 0) await this.redis.del(...keys);
  }
}
