/**
 * Re-seals every live record under the newest key of FIELD_ENCRYPTION_KEYS, so the older keys can be removed
 * (docs/operating.md; docs/adr/0014):
 *
 *   FIELD_ENCRYPTION_KEYS=new:…,old:… REDIS_URL=… [REDIS_SENTINELS=…] [REDIS_KEY_PREFIX=funnel:] [DATABASE_URL=…] npm run keys:reseal
 *
 * - Redis: every lead hash and retained consent copy, each re-sealed under WATCH/MULTI, so a save, purge or
 *   erasure that lands meanwhile is never undone (the record is read again). Answers stored in clear by an older
 *   version are sealed on the way. The apps keep running.
 * - PostgreSQL (with DATABASE_URL): the consent archive's sealed contacts and the privacy log's sealed requests,
 *   each row written only if unchanged since it was read.
 * - Privacy-request stream entries cannot be rewritten in place: they are counted; the worker drains them.
 *
 * Prints progress on stderr and the counts as one JSON object on stdout. Exit 1 if anything still needs an old key.
 */
import { openDatabase } from '@funnel/db/database';
import { resealDatabase } from '@funnel/db/reseal';
import { EncryptionKeysSchema } from '@funnel/lead-store/encryption-keys';
import { FieldCipher } from '@funnel/lead-store/field-cipher';
import { resealRedis } from '@funnel/lead-store/reseal';
import { createRedis, redisConnectionFromEnv } from '@funnel/server-runtime/redis-connection';

const keys = EncryptionKeysSchema.parse(process.env.FIELD_ENCRYPTION_KEYS ?? '');
const currentKeyId = keys[0]!.id;
const cipher = new FieldCipher(keys);
const keyPrefix = process.env.REDIS_KEY_PREFIX ?? 'funnel:';
// REDIS_URL, or REDIS_SENTINELS, TLS and ACL user as the apps read them (docs/configuration.md).
const redis = createRedis(redisConnectionFromEnv(process.env), 'script');
const started = Date.now();
const progress = (what: string, counts: { seen: number; resealed: number; retried: number }) =>
  console.error(
    `[reseal +${((Date.now() - started) / 1000).toFixed(1)}s] ${what}: ${counts.seen} read, ${counts.resealed} re-sealed, ${counts.retried} retried`,
  );

console.error(`[reseal] newest key: ${currentKeyId}; keys listed: ${keys.map((k) => k.id).join(', ')}`);
try {
  const inRedis = await resealRedis(redis, cipher, { keyPrefix, currentKeyId, onProgress: progress });
  const db = process.env.DATABASE_URL ? openDatabase({ url: process.env.DATABASE_URL }) : undefined;
  const inDatabase = db
    ? await resealDatabase(db, cipher, { currentKeyId, onProgress: progress }).finally(() => db.destroy())
    : undefined;
  console.log(
    JSON.stringify(
      { newestKey: currentKeyId, seconds: (Date.now() - started) / 1000, ...inRedis, ...inDatabase },
      null,
      2,
    ),
  );
  if (inRedis.streamEntriesUnderOldKeys > 0) {
    console.error(
      `[reseal] ${inRedis.streamEntriesUnderOldKeys} privacy-request stream entries are still sealed with an older key: keep it listed until the worker has drained them`,
    );
    process.exitCode = 1;
  }
} finally {
  redis.disconnect();
}
