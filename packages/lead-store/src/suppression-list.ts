import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { PrivacyRequestType } from '@funnel/contracts/privacy';
import { contactHashes, keyedHash, type Contact, type ContactHash } from './contact-hash.js';
import { FieldCipher } from './field-cipher.js';
import { evalScript } from './redis-script.js';
import { redisKeys } from './keys.js';

export { normalizeEmail, normalizePhone, type Contact } from './contact-hash.js';

/** What a contact asked for. Each holds forever once asked: opting back in is not a feature. */
export interface Suppression {
  /** No marketing email, text or call, and no mailing-list sync. */
  unsubscribed: boolean;
  /** Not sold or shared with marketing partners, no cross-sell. */
  doNotSell: boolean;
}

/** Who asked: a person through one of the privacy forms, or their browser's Global Privacy Control signal. */
export type PrivacyRequestSource = 'form' | 'global-privacy-control';

/** One privacy request to record. */
export interface PrivacyRequestEntry {
  type: PrivacyRequestType;
  source: PrivacyRequestSource;
  /** The contact the request is about; suppressed under its normalized email and phone. */
  contact: Contact;
  /** The request as the person sent it (validated), kept so the operator can honour it and prove it. */
  request: Record<string, unknown>;
  /** The visitor's own lead, when the request came with its session and the lead was flagged. */
  leadId?: string | undefined;
}

export interface RecordedRequest {
  /** The id of the stored request; a repeat answers the id of the request it repeats. */
  requestId: string;
  /** True when an identical request was recorded within the duplicate window and nothing new was stored. */
  duplicate: boolean;
}

/** Seals and opens text with the field-encryption key ring (`FieldCipher`). */
export interface RequestSealer {
  seal(plaintext: string, context: string): string;
  open(sealed: string, context: string): string;
}

export interface SuppressionListOptions {
  keyPrefix: string;
  /**
   * Seals the request as sent before it enters the stream (FIELD_ENCRYPTION_KEYS): Redis and its AOF never hold
   * a name, email, phone or address in clear (issue 23).
   */
  sealer: RequestSealer;
  /** Server-side HMAC-SHA256 key: contacts are indexed by keyed hashes, never in clear. */
  hashSecret: string;
  /** Identical requests (same type and contact) within this window are recorded once. Default 24 h. */
  duplicateWindowMs?: number;
  now?: () => Date;
}

const DAY_MS = 24 * 60 * 60 * 1000;

// One atomic step: a repeat within the window answers the earlier request id and writes nothing; otherwise the
// request is appended to the stream and its contact hashes are indexed (the first request's time is kept).
// KEYS: stream, index[, duplicate guard]. ARGV: window ms, request id, time, n, n stream args, index fields.
const RECORD = `
if #KEYS == 3 then
  local earlier = redis.call('GET', KEYS[3])
  if earlier then return {0, earlier} end
end
local n = tonumber(ARGV[4])
local entry = {}
for i = 5, 4 + n do entry[#entry + 1] = ARGV[i] end
redis.call('XADD', KEYS[1], '*', unpack(entry))
for i = 5 + n, #ARGV do redis.call('HSETNX', KEYS[2], ARGV[i], ARGV[3]) end
if #KEYS == 3 then redis.call('SET', KEYS[3], ARGV[2], 'PX', ARGV[1]) end
return {1, ARGV[2]}`;

/** What a sealed request is bound to: a ciphertext copied to another entry fails to open. */
function requestContext(requestId: string): string {
  return `privacy-request:${requestId}`;
}

/**
 * The request as sent of one stream entry (its `requestId` and `request` fields), opened. An entry written
 * before requests were sealed holds its JSON in clear and is read as it is.
 */
export function openPrivacyRequest(
  sealer: RequestSealer,
  entry: { requestId?: string | undefined; request?: string | undefined },
): Record<string, unknown> {
  const { requestId = '', request = '{}' } = entry;
  const json = FieldCipher.isSealed(request) ? sealer.open(request, requestContext(requestId)) : request;
  return JSON.parse(json) as Record<string, unknown>;
}

/**
 * Privacy requests (unsubscribe, do-not-sell) and the suppression list they feed, in Redis.
 *
 * - Every request is appended to a stream (`{prefix}privacy-requests`) with its id, type, source, UTC time, the
 *   visitor's lead id when one was flagged, and the request as sent, sealed ({@link openPrivacyRequest} opens
 *   it): the durable, append-only record an operator honours and shows an auditor. The worker moves it to
 *   PostgreSQL and deletes it here; without a system of record nothing trims it.
 * - The suppression index (`{prefix}suppression`) holds only HMAC-SHA256 hashes of the normalized email and
 *   phone, so a look-up needs the contact in hand and a dump of the index names nobody.
 * - A repeat of the same type for the same contact within the duplicate window stores nothing new.
 *
 * The BFF records requests; the BFF and the worker ask {@link SuppressionList.isSuppressed} before any
 * mailing-list sync, cross-sell or partner sharing.
 */
export class SuppressionList {
  private readonly duplicateWindowMs: number;
  private readonly now: () => Date;

  constructor(
    private readonly redis: Redis,
    private readonly options: SuppressionListOptions,
  ) {
    this.duplicateWindowMs = options.duplicateWindowMs ?? DAY_MS;
    this.now = options.now ?? (() => new Date());
  }

  /** The append-only stream of every privacy request. */
  get streamKey(): string {
    return redisKeys(this.options.keyPrefix).privacyRequests;
  }

  /** The hash of contact hashes, field `{type}:{email|phone}:{hmac}` → time of the first request. */
  get indexKey(): string {
    return redisKeys(this.options.keyPrefix).suppression;
  }

  /** Appends the request and suppresses its contact; a repeat within the window stores nothing. */
  async record(entry: PrivacyRequestEntry): Promise<RecordedRequest> {
    const requestId = randomUUID();
    const at = this.now().toISOString();
    const hashes = this.hashes(entry.contact);
    const streamArgs = [
      'requestId',
      requestId,
      'type',
      entry.type,
      'source',
      entry.source,
      'at',
      at,
      ...(entry.leadId ? ['leadId', entry.leadId] : []),
      'request',
      this.options.sealer.seal(JSON.stringify(entry.request), requestContext(requestId)),
    ];
    const indexFields = hashes.map(({ kind, hash }) => `${entry.type}:${kind}:${hash}`);
    // Only a request about a contact can repeat; a GPC signal is recorded once per lead by its caller.
    const keys = [this.streamKey, this.indexKey];
    if (hashes.length > 0) keys.push(this.duplicateKey(entry.type, hashes));
    const [created, id] = (await evalScript(
      this.redis,
      RECORD,
      keys.length,
      ...keys,
      this.duplicateWindowMs,
      requestId,
      at,
      streamArgs.length,
      ...streamArgs,
      ...indexFields,
    )) as [number, string];
    return { requestId: id, duplicate: created === 0 };
  }

  /**
   * Appends an erasure done on an operator's verified deletion request (type `deletion`, source `operator`).
   * The contact is written only as its keyed hashes: the entry proves that, when and how much was erased
   * without keeping what was erased. Returns the request id.
   */
  async recordDeletion(
    contact: Contact,
    erased: { leadsDeleted: number; jobsRemoved: number },
  ): Promise<string> {
    const requestId = randomUUID();
    const request = JSON.stringify({
      contact: this.hashes(contact).map(({ kind, hash }) => `${kind}:${hash}`),
      ...erased,
    });
    await this.redis.xadd(
      this.streamKey,
      '*',
      'requestId',
      requestId,
      'type',
      'deletion',
      'source',
      'operator',
      'at',
      this.now().toISOString(),
      'request',
      this.options.sealer.seal(request, requestContext(requestId)),
    );
    return requestId;
  }

  /** Whether this email or phone (typed in any form) has unsubscribed or asked not to be sold. */
  async isSuppressed(contact: Contact): Promise<Suppression> {
    const hashes = this.hashes(contact);
    if (hashes.length === 0) return { unsubscribed: false, doNotSell: false };
    const types: PrivacyRequestType[] = ['unsubscribe', 'do-not-sell'];
    const fields = types.flatMap((type) => hashes.map(({ kind, hash }) => `${type}:${kind}:${hash}`));
    const found = await this.redis.hmget(this.indexKey, ...fields);
    const any = (type: PrivacyRequestType) =>
      fields.some((field, i) => field.startsWith(`${type}:`) && found[i] !== null);
    return { unsubscribed: any('unsubscribe'), doNotSell: any('do-not-sell') };
  }

  private hashes(contact: Contact): ContactHash[] {
    return contactHashes(contact, this.options.hashSecret);
  }

  private duplicateKey(type: PrivacyRequestType, hashes: Array<{ hash: string }>): string {
    const contact = this.hmac(hashes.map(({ hash }) => hash).join(':'));
    return redisKeys(this.options.keyPrefix).privacyRequestSeen(type, contact);
  }

  private hmac(text: string): string {
    return keyedHash(text, this.options.hashSecret);
  }
}
