import type { Redis } from 'ioredis';
import { isSealedServerField } from '@funnel/contracts/fields';
import { FieldCipher } from './field-cipher.js';
import { META } from './lead-record.js';
import { retainedConsentContext } from './retained-consent.js';
import { redisKeys } from './keys.js';

/** What a re-sealing pass did to one kind of record. */
export interface ResealCounts {
  /** Records read. */
  seen: number;
  /** Records written again under the newest key (or sealed for the first time, when an older version wrote them in clear). */
  resealed: number;
  /** Writes retried because the record changed while it was being re-sealed. */
  retried: number;
}

export const emptyCounts = (): ResealCounts => ({ seen: 0, resealed: 0, retried: 0 });

/** The newest key's id: what `FIELD_ENCRYPTION_KEYS` lists first. */
export function sealedWithOtherKey(value: string, currentKeyId: string): boolean {
  return FieldCipher.isSealed(value) && value.split(':')[2] !== currentKeyId;
}

/** `value` under the newest key: opened and sealed again when another key sealed it, sealed when in clear. */
function resealed(cipher: FieldCipher, value: string, context: string): string {
  return cipher.seal(FieldCipher.isSealed(value) ? cipher.open(value, context) : value, context);
}

async function scanKeys(
  redis: Redis,
  match: string,
  onBatch: (keys: string[]) => Promise<void>,
): Promise<void> {
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', match, 'COUNT', 500);
    cursor = next;
    if (keys.length > 0) await onBatch(keys);
  } while (cursor !== '0');
}

/**
 * Writes `key` again with `change` applied, under WATCH: a save, a purge or an erasure landing meanwhile makes EXEC
 * fail, and the record is read again, so a concurrent write is never lost or undone. Answers whether it wrote.
 */
async function checkAndSet(
  redis: Redis,
  key: string,
  counts: ResealCounts,
  read: (redis: Redis) => Promise<unknown>,
  change: (current: unknown, multi: ReturnType<Redis['multi']>) => boolean,
): Promise<void> {
  for (;;) {
    await redis.watch(key);
    const current = await read(redis);
    const multi = redis.multi();
    if (!change(current, multi)) {
      multi.discard();
      await redis.unwatch();
      return;
    }
    if ((await multi.exec()) !== null) {
      counts.resealed += 1;
      return;
    }
    counts.retried += 1;
  }
}

/**
 * Re-seals every lead (`{prefix}lead:{id}` hashes) and retained consent copy (`{prefix}consent:{id}`) under the
 * newest key of `cipher`, while the apps keep running. `redis` must be a connection of its own (WATCH).
 * `onProgress` is told after every batch.
 */
export async function resealRedis(
  redis: Redis,
  cipher: FieldCipher,
  options: {
    keyPrefix: string;
    currentKeyId: string;
    onProgress?: (what: string, counts: ResealCounts) => void;
  },
): Promise<{ leads: ResealCounts; consents: ResealCounts; streamEntriesUnderOldKeys: number }> {
  const { keyPrefix, currentKeyId } = options;
  const leads = emptyCounts();
  const { leadPrefix, consentPrefix, privacyRequests: stream } = redisKeys(keyPrefix);
  await scanKeys(redis, `${leadPrefix}*`, async (keys) => {
    for (const key of keys) {
      const id = key.slice(leadPrefix.length);
      if (id.includes(':')) continue; // a key kept beside a lead (its posting claim)
      leads.seen += 1;
      await checkAndSet(
        redis,
        key,
        leads,
        (r) => r.hgetall(key),
        (current, multi) => {
          const hash = current as Record<string, string>;
          const updates: string[] = [];
          for (const [field, value] of Object.entries(hash)) {
            const mustSeal = isSealedServerField(field) || field === META.consent;
            if (sealedWithOtherKey(value, currentKeyId) || (mustSeal && !FieldCipher.isSealed(value)))
              updates.push(field, resealed(cipher, value, `${id}:${field}`));
          }
          if (updates.length === 0) return false;
          multi.hset(key, ...updates); // HSET keeps the lead's TTL
          return true;
        },
      );
    }
    options.onProgress?.('leads', leads);
  });

  const consents = emptyCounts();
  await scanKeys(redis, `${consentPrefix}*`, async (keys) => {
    for (const key of keys) {
      const leadId = key.slice(consentPrefix.length);
      consents.seen += 1;
      await checkAndSet(
        redis,
        key,
        consents,
        (r) => r.get(key),
        (current, multi) => {
          const value = current as string | null;
          if (value === null || (FieldCipher.isSealed(value) && !sealedWithOtherKey(value, currentKeyId)))
            return false;
          multi.set(key, resealed(cipher, value, retainedConsentContext(leadId)), 'KEEPTTL');
          return true;
        },
      );
    }
    options.onProgress?.('consent copies', consents);
  });

  // Stream entries cannot be rewritten in place: with a system of record the worker drains them within a
  // second; without one they stay, and so must the key that sealed them.
  let streamEntriesUnderOldKeys = 0;
  if ((await redis.type(stream)) === 'stream') {
    for (const [, fields] of await redis.xrange(stream, '-', '+')) {
      if (fields.some((value) => sealedWithOtherKey(value, currentKeyId))) streamEntriesUnderOldKeys += 1;
    }
  }
  return { leads, consents, streamEntriesUnderOldKeys };
}
