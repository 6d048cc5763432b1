// Started by test.mjs as `node --conditions=source --import tsx scripts/test-services.mjs <dir>`: finds or starts the
// test services (services.mjs), writes <dir>/ready.json ({ redisUrl, databaseUrl, line }), and serves them (PGlite
// runs in this process) until test.mjs ends (its stdin closes) or sends SIGTERM. Then it stops what it started and
// writes <dir>/stopped. Files, because test.mjs runs its steps with spawnSync and waits for them without an event loop.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { findTestServices } from './services.mjs';

const dir = process.argv[2];
let services;
try {
  services = await findTestServices(process.env);
} catch (error) {
  writeFileSync(path.join(dir, 'failed'), error.message);
  process.exit(1);
}
const { redisUrl, databaseUrl, line } = services;
writeFileSync(path.join(dir, 'ready.json'), JSON.stringify({ redisUrl, databaseUrl, line }));

let stopping = false;
async function stop() {
  if (stopping) return;
  stopping = true;
  await services
    .stop()
    .catch((error) => console.error(`[test] stopping the test services: ${error.message}`));
  writeFileSync(path.join(dir, 'stopped'), '');
  process.exit(0);
}
process.stdin.on('end', stop);
process.stdin.on('error', stop);
process.stdin.resume();
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
