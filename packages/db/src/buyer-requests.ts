import { randomBytes } from 'node:crypto';
import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from './database.js';

/**
 * Returns and conversions from buyers (ADR 0020, "Returns and conversions"), written straight to the system of
 * record: each request runs in one transaction holding its buyer's lock, so two returns of one buyer never both
 * pass its cap, and an idempotency key is bound once to what it created. The event and its row are written
 * together.
 */

/** Why a buyer's request was refused; `message` is what the buyer's developer reads. */
export type BuyerRequestRefusal =
  | { refused: 'no_sale' | 'window_closed' | 'cap_reached' | 'already_reported'; message: string }
  | { refused: 'key_reused'; message: string };

export interface BuyerRequestKey {
  buyer: string;
  /** SHA-256 of the `Idempotency-Key` (keys may be the buyer's own references: never stored in clear). */
  keyHash: string;
  /** SHA-256 of the request's canonical JSON: the key is bound to that body. */
  fingerprint: string;
}

/** A request's result: what it created (or created the first time, `replayed`), or why it was refused. */
export type BuyerRequestResult<T> = { created: T; replayed: boolean } | BuyerRequestRefusal;

export interface Sale {
  attemptKey: string;
  leadId: string;
  buyer: string;
  price: number;
  soldAt: Date;
}

const NO_SALE =
  'No lead was sold to you under this reference: send the ReferenceID (our lead id) or the IdempotencyKey / ' +
  'partnerLeadId of the post you accepted.';

export function newId(prefix: string): string {
  return `${prefix}_${randomBytes(12).toString('base64url')}`;
}

/** The sale a reference names (our lead id, or the sold attempt's key), whoever bought it. */
async function findSale(trx: Transaction<Database>, reference: string): Promise<Sale | undefined> {
  const row = await trx
    .selectFrom('buyer_attempts')
    .select(['attempt_key', 'lead_id', 'buyer', 'price', 'at'])
    .where('result', '=', 'sold')
    .where((eb) => eb.or([eb('attempt_key', '=', reference), eb('lead_id', '=', reference)]))
    .orderBy('at')
    .executeTakeFirst();
  return row
    ? {
        attemptKey: row.attempt_key,
        leadId: row.lead_id,
        buyer: row.buyer,
        price: Number(row.price ?? 0),
        soldAt: row.at,
      }
    : undefined;
}

/**
 * Runs `create` for the buyer's sale named by `reference` in a transaction holding the buyer's lock, unless the idempotency key was used before: then it
 * answers what the key created (`replayed`), or refuses a key used with another body.
 */
export async function underBuyerKey<T>(
  db: Kysely<Database>,
  kind: 'returns' | 'conversions',
  key: BuyerRequestKey,
  read: (trx: Transaction<Database>, createdId: string) => Promise<T>,
  /** Our lead id or the sold attempt's key, as the buyer sent it. */
  reference: string,
  /** Runs only for a sale to this buyer; anyone else's, or none, is refused as `no_sale`. */
  create: (trx: Transaction<Database>, sale: Sale) => Promise<{ id: string; value: T } | BuyerRequestRefusal>,
  now: Date,
): Promise<BuyerRequestResult<T>> {
  return db.transaction().execute(async (trx): Promise<BuyerRequestResult<T>> => {
    await sql`select pg_advisory_xact_lock(hashtext(${`buyer-api:${key.buyer}`}))`.execute(trx);
    const earlier = await trx
      .selectFrom('buyer_api_requests')
      .select(['fingerprint', 'created_id'])
      .where('buyer', '=', key.buyer)
      .where('kind', '=', kind)
      .where('key_hash', '=', key.keyHash)
      .executeTakeFirst();
    if (earlier) {
      if (earlier.fingerprint !== key.fingerprint) {
        return {
          refused: 'key_reused',
          message:
            'This Idempotency-Key was already used with a different body: use a new key for a new request.',
        };
      }
      return { created: await read(trx, earlier.created_id), replayed: true };
    }
    const sale = await findSale(trx, reference);
    if (!sale || sale.buyer !== key.buyer) return { refused: 'no_sale', message: NO_SALE };
    const result = await create(trx, sale);
    if ('refused' in result) return result;
    await trx
      .insertInto('buyer_api_requests')
      .values({
        buyer: key.buyer,
        kind,
        key_hash: key.keyHash,
        fingerprint: key.fingerprint,
        created_id: result.id,
        at: now,
      })
      .execute();
    return { created: result.value, replayed: false };
  });
}
