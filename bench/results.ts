// `npm run bench:results`: writes bench/RESULTS.md from the records in bench/results/ (lib/results-page.ts).
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchScripts, readRecords, renderResults } from './lib/results-page.js';
import { RESULTS_DIR } from './lib/report.js';

const benchDir = path.dirname(fileURLToPath(import.meta.url));
const records = readRecords(RESULTS_DIR);
writeFileSync(path.join(benchDir, 'RESULTS.md'), renderResults(records, benchScripts(benchDir)));
console.log(`bench/RESULTS.md written from ${records.length} records`);
