import { createReadStream } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { sql, type Kysely } from 'kysely';
import type { Database } from './database.js';

/** What one load of the registry held. */
export interface DoNotCallLoad {
  areaCodes: number;
  numbers: number;
  loadedAt: Date;
}

/** Where the registry stands for one phone number: listed or not, and when the copy asked was loaded. */
export interface DoNotCallStatus {
  listed: boolean;
  /** Undefined when no registry was ever loaded: the check cannot say anything. */
  loadedAt: Date | undefined;
}

/** Rows sent to PostgreSQL at a time while loading. */
const BATCH = 10_000;
/** The ten digits of a number, as the registry's full list writes it: the area code, a comma, the seven others. */
const FULL_LIST_LINE = /^\s*(\d{3})\s*,\s*(\d{7})\s*$/;
const TEN_DIGITS = /^\s*(\d{10})\s*$/;

/**
 * The numbers of a registry download, read a line at a time: the FTC's full-list flat file (`AAA,NNNNNNN` per
 * line, one file per area code or one for the whole registry), or ten digits a line. A line that is neither fails
 * the load with its line number, before anything is changed.
 */
async function* numberBatches(file: string): AsyncGenerator<string[]> {
  const lines = createInterface({ input: createReadStream(file), crlfDelay: Infinity });
  let batch: string[] = [];
  let lineNumber = 0;
  for await (const line of lines) {
    lineNumber += 1;
    if (line.trim() === '') continue;
    const full = FULL_LIST_LINE.exec(line);
    const digits = full ? `${full[1]}${full[2]}` : TEN_DIGITS.exec(line)?.[1];
    if (!digits) {
      throw new Error(
        `${path.basename(file)} line ${lineNumber}: not a registry line ("area code,number" or 10 digits)`,
      );
    }
    batch.push(digits);
    if (batch.length === BATCH) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length > 0) yield batch;
}

/**
 * Loads a registry download: the area codes the file holds are replaced by what it lists (a full list per area
 * code is what the registry gives a subscriber), the others are kept. One transaction: a screen asking meanwhile
 * sees the previous copy whole, never half of the new one.
 */
export async function loadDoNotCallFile(
  db: Kysely<Database>,
  file: string,
  now: () => Date = () => new Date(),
): Promise<DoNotCallLoad> {
  return db.transaction().execute(async (trx) => {
    await sql`create temporary table do_not_call_incoming (phone bigint not null) on commit drop`.execute(
      trx,
    );
    for await (const batch of numberBatches(file)) {
      await sql`insert into do_not_call_incoming (phone) select unnest(${batch}::bigint[])`.execute(trx);
    }
    const areas = sql`(select distinct phone / 10000000 as area from do_not_call_incoming)`;
    await sql`
      delete from do_not_call_numbers listed using ${areas} incoming
      where listed.phone >= incoming.area * 10000000 and listed.phone < (incoming.area + 1) * 10000000`.execute(
      trx,
    );
    await sql`
      insert into do_not_call_numbers (phone)
      select distinct phone from do_not_call_incoming
      on conflict do nothing`.execute(trx);
    const counted = await sql<{ area_codes: number; numbers: string }>`
      select count(distinct phone / 10000000)::int as area_codes, count(distinct phone)::bigint as numbers
      from do_not_call_incoming`.execute(trx);
    const { area_codes: areaCodes, numbers } = counted.rows[0]!;
    const loadedAt = now();
    await trx
      .insertInto('do_not_call_loads')
      .values({ loaded_at: loadedAt, file_name: path.basename(file), area_codes: areaCodes, numbers })
      .execute();
    return { areaCodes, numbers: Number(numbers), loadedAt };
  });
}

/** Whether `phone` (10 digits) is on the registry, and when the copy asked was loaded; one round trip. */
export async function doNotCallStatus(db: Kysely<Database>, phone: string): Promise<DoNotCallStatus> {
  const { rows } = await sql<{ listed: boolean; loaded_at: Date | null }>`
    select exists (select 1 from do_not_call_numbers where phone = ${phone}::bigint) as listed,
           (select max(loaded_at) from do_not_call_loads) as loaded_at`.execute(db);
  const row = rows[0]!;
  return { listed: row.listed, loadedAt: row.loaded_at ?? undefined };
}
