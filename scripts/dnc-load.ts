/**
 * Loads a download of the federal Do Not Call registry into the system of record (issue 41), where screening
 * looks a lead's phone up:
 *
 *   DATABASE_URL=… npm run dnc:load -- <file> [<file> …]
 *
 * Each file is a full list as the registry gives a subscriber (unzipped): `AAA,NNNNNNN` per line, for one area
 * code, a state's or the whole registry. The area codes a file holds are replaced by it; the others are kept.
 * Applies the migrations first, as the worker does. The registry's terms want a copy at most 31 days old: run it
 * on a schedule.
 */
import { migrate, openDatabase } from '@funnel/db/database';
import { loadDoNotCallFile } from '@funnel/db/do-not-call';

const files = process.argv.slice(2);
const url = process.env.DATABASE_URL;
if (!url || files.length === 0) {
  console.error('usage: DATABASE_URL=… npm run dnc:load -- <registry file> [<registry file> …]');
  process.exit(2);
}
const db = openDatabase({ url, max: 1 });
try {
  await migrate(db);
  for (const file of files) {
    const started = Date.now();
    const load = await loadDoNotCallFile(db, file);
    console.log(
      `${file}: ${load.numbers.toLocaleString('en-US')} numbers in ${load.areaCodes} area codes, ` +
        `loaded in ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
  }
} catch (error) {
  console.error((error as Error).message);
  process.exitCode = 1;
} finally {
  await db.destroy();
}
