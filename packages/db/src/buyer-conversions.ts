import type { Kysely, Transaction } from 'kysely';
import type { BuyerConversion, BuyerConversionRequest } from '@funnel/contracts/buyer-api';
import { newId, underBuyerKey, type BuyerRequestKey, type BuyerRequestResult } from './buyer-requests.js';
import type { Database } from './database.js';
import { recordEvents } from './record-events.js';

async function readConversion(trx: Transaction<Database>, conversionId: string): Promise<BuyerConversion> {
  const row = await trx
    .selectFrom('sale_conversions')
    .selectAll()
    .where('conversion_id', '=', conversionId)
    .executeTakeFirstOrThrow();
  return {
    conversionId: row.conversion_id,
    leadId: row.lead_id,
    reference: row.attempt_key,
    funded: row.funded,
    ...(row.amount === null ? {} : { amount: Number(row.amount) }),
    recordedAt: row.recorded_at.toISOString(),
  };
}

/** A buyer reports what became of a lead it bought: once per sale, only by that buyer (a `converted` event). */
export async function fileConversion(
  db: Kysely<Database>,
  input: BuyerRequestKey & { request: BuyerConversionRequest; now: Date },
): Promise<BuyerRequestResult<BuyerConversion>> {
  const { request, now } = input;
  return underBuyerKey<BuyerConversion>(
    db,
    'conversions',
    input,
    readConversion,
    request.reference,
    async (trx, sale) => {
      const earlier = await trx
        .selectFrom('sale_conversions')
        .select('conversion_id')
        .where('attempt_key', '=', sale.attemptKey)
        .executeTakeFirst();
      if (earlier) {
        return {
          refused: 'already_reported',
          message: `A conversion was already reported for this sale (${earlier.conversion_id}).`,
        };
      }
      const conversionId = newId('conv');
      await trx
        .insertInto('sale_conversions')
        .values({
          conversion_id: conversionId,
          lead_id: sale.leadId,
          attempt_key: sale.attemptKey,
          buyer: sale.buyer,
          funded: request.funded,
          amount: request.amount ?? null,
          recorded_at: now,
        })
        .execute();
      await recordEvents(trx, [
        {
          eventId: `${sale.leadId}.converted`,
          leadId: sale.leadId,
          at: now.toISOString(),
          type: 'converted',
          conversionId,
          buyer: sale.buyer,
          attemptKey: sale.attemptKey,
          funded: request.funded,
          ...(request.amount === undefined ? {} : { amount: request.amount }),
        },
      ]);
      return { id: conversionId, value: await readConversion(trx, conversionId) };
    },
    now,
  );
}
